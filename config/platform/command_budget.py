"""How many commands one socket may send: a burst, then a steady rate.

A table's consumer tells a client that floods ``rate_limited`` for each command
over its budget, cheaply and without touching the database, and disconnects one
that keeps on past ``strikes`` refusals in a row (close code 4429); Daphne's frame
guard (config/adapters/frame_guard.py) keeps a looser budget of its own per connection.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class CommandBudget:
    """A token bucket: ``burst`` commands at once, refilled at ``per_second``."""

    burst: float
    per_second: float
    strikes: int
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    refused_in_a_row: int = field(init=False, default=0)
    updated: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst
        self.updated = self.clock()

    def take(self) -> bool:
        """Spend one command; False when over budget (and count the strike)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.per_second)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        return False

    @property
    def is_exhausted(self) -> bool:
        """Refused ``strikes`` times in a row: time to disconnect."""
        return self.refused_in_a_row >= self.strikes

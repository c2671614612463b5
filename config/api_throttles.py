"""REST API throttling with one atomic counter per caller and window, in Redis.

DRF's own throttles read the caller's request history, add to it and write it
back: concurrent requests all read the same history, and each is let through
(758 got in against a rate of 600 a minute). Here each request adds one to a
counter with a single atomic increment, so the count is exact however many
arrive at once. The window is fixed (a minute starts on the minute).
"""

from __future__ import annotations

import time
from typing import Any

from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle


class AtomicRateThrottle(SimpleRateThrottle):
    window_ends = 0.0
    # Set by SimpleRateThrottle.__init__ from the rate (absent from its stubs).
    num_requests: int
    duration: int

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = time.time()
        window = int(now // self.duration)
        self.window_ends = (window + 1) * self.duration
        counter = f"{key}:{window}"
        self.cache.add(counter, 0, self.duration + 1)  # SET NX: the window's first request
        try:
            count = self.cache.incr(counter)
        except ValueError:  # expired between add() and incr(): a new window
            self.cache.add(counter, 0, self.duration + 1)
            count = self.cache.incr(counter)
        return bool(count <= self.num_requests)

    def wait(self) -> float | None:
        return max(0.0, self.window_ends - time.time())


class AnonThrottle(AtomicRateThrottle, AnonRateThrottle):
    """Anonymous callers, per address (API_ANON_RATE)."""


class UserThrottle(AtomicRateThrottle, UserRateThrottle):
    """Signed-in callers, per member (API_USER_RATE)."""

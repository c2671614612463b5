"""Main and side pots, and dividing a pot between tied winners.

>>> build_pots((50, 100, 100), (True, True, True), (0, 20, 30))
(Pot(amount=150, eligible=(0, 1, 2)), Pot(amount=100, eligible=(1, 2)))
>>> split_pot(7, (1, 3), button=3, seat_count=4)
((1, 4), (3, 3))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """Chips in one pot and the seats that can win them."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(
    contributions: Sequence[int], is_live: Sequence[bool], stacks: Sequence[int]
) -> tuple[Pot, ...]:
    """Layer the chips put in into a main pot and side pots (rule 11).

    Each live player who is all-in (no chips in ``stacks``) caps a layer:
    a layer can only be won by live players who put in at least its cap.
    Folded players' chips count in every layer they reached but win nothing.
    """
    seats = range(len(contributions))
    caps = sorted({contributions[s] for s in seats if is_live[s] and stacks[s] == 0})
    top = max(contributions)
    pots: list[Pot] = []
    floor = 0
    for cap in [*caps, top]:
        if cap <= floor:
            continue
        amount = sum(min(c, cap) - min(c, floor) for c in contributions)
        eligible = tuple(s for s in seats if is_live[s] and contributions[s] >= cap)
        # A layer no live player reached could only hold chips of players who
        # folded when checking was free (not allowed); all live players share it.
        eligible = eligible or tuple(s for s in seats if is_live[s])
        pots.append(Pot(amount, eligible))
        floor = cap
    return tuple(pots)


def split_pot(
    amount: int, winners: Sequence[int], button: int, seat_count: int
) -> tuple[tuple[int, int], ...]:
    """Equal shares as ``(seat, chips)`` pairs; odd chips go one each to the
    winners first to the left of the button (rule 12), within this pot only."""
    ordered = sorted(winners, key=lambda seat: (seat - button - 1) % seat_count)
    share, odd = divmod(amount, len(ordered))
    return tuple((seat, share + (1 if rank < odd else 0)) for rank, seat in enumerate(ordered))

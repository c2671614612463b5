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
    live = [s for s in range(len(contributions)) if is_live[s]]
    caps = sorted({contributions[s] for s in live if stacks[s] == 0})
    top = max(contributions)
    total = sum(contributions)
    pots: list[Pot] = []
    floor = below_floor = 0  # below_floor: the chips in the layers under ``floor``
    for cap in [*caps, top]:
        if cap <= floor:
            continue
        up_to_cap = total if cap == top else sum([c if c < cap else cap for c in contributions])
        eligible = tuple([s for s in live if contributions[s] >= cap])
        if not eligible:
            # Betting never leaves folded chips above every live player (rule 9's
            # exception ends the betting before a fold could); never award them.
            raise ValueError(f"no live player reached the pot layer up to {cap} chips")
        pots.append(Pot(up_to_cap - below_floor, eligible))
        floor, below_floor = cap, up_to_cap
    return tuple(pots)


def split_pot(
    amount: int, winners: Sequence[int], button: int, seat_count: int
) -> tuple[tuple[int, int], ...]:
    """Equal shares as ``(seat, chips)`` pairs; odd chips go one each to the
    winners first to the left of the button (rule 12), within this pot only."""
    if len(winners) == 1:
        return ((winners[0], amount),)
    ordered = sorted(winners, key=lambda seat: (seat - button - 1) % seat_count)
    share, odd = divmod(amount, len(ordered))
    return tuple((seat, share + (1 if rank < odd else 0)) for rank, seat in enumerate(ordered))

"""Tournament arithmetic: blind levels, payouts and finishing places.

>>> REGULAR.level_at(25 * 60)
(2, BlindLevel(small_blind=25, big_blind=50, ante=0, minutes=10))
>>> payouts(600, 6)
(390, 210)
>>> finishing_places({"ann": 800, "bob": 300, "cy": 300}, players_left=5)
{'ann': 3, 'bob': 4, 'cy': 4}
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

Player = TypeVar("Player", bound=Hashable)


@dataclass(frozen=True, slots=True)
class BlindLevel:
    """One level of a blind structure."""

    small_blind: int
    big_blind: int
    ante: int
    minutes: float


@dataclass(frozen=True, slots=True)
class BlindStructure:
    """A named ladder of levels and the stack every player starts with."""

    name: str
    starting_stack: int
    levels: tuple[BlindLevel, ...]

    def level_at(self, elapsed_seconds: float) -> tuple[int, BlindLevel]:
        """The level (index from 0, and the level) after ``elapsed_seconds`` of play.

        After the last level the structure stays on it.
        """
        if elapsed_seconds < 0:
            raise ValueError("elapsed time cannot be negative")
        ends = 0.0
        for index, level in enumerate(self.levels):
            ends += level.minutes * 60
            if elapsed_seconds < ends:
                return index, level
        return len(self.levels) - 1, self.levels[-1]


# The common 6-max sit-n-go ladder (docs/rules.md), continued upward.
_LADDER = (
    (10, 20, 0),
    (15, 30, 0),
    (25, 50, 0),
    (50, 100, 0),
    (75, 150, 0),
    (100, 200, 0),
    (100, 200, 25),
    (150, 300, 25),
    (200, 400, 50),
    (300, 600, 75),
    (400, 800, 100),
    (500, 1000, 125),
    (600, 1200, 150),
    (800, 1600, 200),
    (1000, 2000, 250),
    (1500, 3000, 375),
    (2000, 4000, 500),
    (3000, 6000, 750),
)


def _structure(name: str, starting_stack: int, minutes: float) -> BlindStructure:
    levels = tuple(BlindLevel(sb, bb, ante, minutes) for sb, bb, ante in _LADDER)
    return BlindStructure(name, starting_stack, levels)


REGULAR = _structure("regular", 1500, 10)
TURBO = _structure("turbo", 1500, 5)
HYPER = _structure("hyper", 500, 3)
STRUCTURES = {s.name: s for s in (REGULAR, TURBO, HYPER)}

# Percentages of the prize pool by field size: (largest field, shares).
_PAYOUT_TABLE = (
    (1, (100,)),
    (2, (100,)),
    (6, (65, 35)),
    (10, (50, 30, 20)),
    (20, (40, 25, 17, 11, 7)),
    (30, (35, 22, 15, 11, 9, 8)),
    (None, (30, 20, 14, 10, 8, 7, 6, 5)),
)


def payout_percentages(entrants: int) -> tuple[int, ...]:
    """Percent of the pool for 1st, 2nd, ... for a field of ``entrants``."""
    if entrants < 1:
        raise ValueError("a tournament needs at least one entrant")
    return next(
        shares for largest, shares in _PAYOUT_TABLE if largest is None or entrants <= largest
    )


def payouts(
    prize_pool: int, entrants: int, percentages: Sequence[int] | None = None
) -> tuple[int, ...]:
    """Prizes in whole chips or points for 1st, 2nd, ...; they add up to ``prize_pool``
    exactly, rounding remainders going to first place.

    ``percentages`` (adding up to 100) replace the default split by field size;
    places beyond the field are paid to nobody, so their share goes to first.

    >>> payouts(1000, 3, [50, 30, 15, 5])
    (550, 300, 150)
    """
    if prize_pool < 0:
        raise ValueError("the prize pool cannot be negative")
    if percentages is None:
        shares = payout_percentages(entrants)
    elif sum(percentages) != 100 or any(share < 0 for share in percentages):
        raise ValueError("payout percentages must add up to 100")
    else:
        shares = tuple(percentages)[: max(entrants, 1)]
    prizes = [prize_pool * share // 100 for share in shares]
    prizes[0] += prize_pool - sum(prizes)
    return tuple(prizes)


def finishing_places(starting_stacks: Mapping[Player, int], players_left: int) -> dict[Player, int]:
    """Places of players who busted in the same hand (rule 19).

    ``starting_stacks`` maps each player who busted in the hand to their
    stack at the start of it; ``players_left`` counts the players still in
    the tournament when the hand began, busted ones included. Whoever
    started with more chips finishes higher; equal stacks share the better
    of their places (two players busting 5th and 6th with equal stacks both
    finish 5th).
    """
    busted = len(starting_stacks)
    if not 0 < busted <= players_left:
        raise ValueError("between one and players_left players can bust in a hand")
    worst_shared = players_left - busted + 1
    return {
        player: worst_shared + sum(1 for other in starting_stacks.values() if other > stack)
        for player, stack in starting_stacks.items()
    }

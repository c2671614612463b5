"""A blind structure from a few choices, instead of typing every level.

A club director gives the starting stack, how long each level lasts, and either how
fast the blinds rise (``SPEEDS``) or how long the tournament should take; breaks may
come every so many levels. The first big blind is about a 75th of the stack (the
regular structure's 20 for 1,500); the blinds then grow by the speed's factor each
level, rounded to amounts a dealer would use (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8
times a power of ten, always even so the small blind is half of it). Antes of an
eighth of the big blind (rounded the same way) start once the big blind is ten times
the first. The levels go on until the big blind is four starting stacks.

With a target length, the speed is whatever makes the big blind reach one starting
stack when the target time comes (breaks counted): a field of a few tables is down
to its last players about then.

>>> quick = quick_structure(starting_stack=1500, level_minutes=15)
>>> quick.levels[:3]
(BlindLevel(small_blind=10, big_blind=20, ante=0, minutes=15), \
BlindLevel(small_blind=15, big_blind=30, ante=0, minutes=15), \
BlindLevel(small_blind=20, big_blind=40, ante=0, minutes=15))
>>> quick_structure(starting_stack=1500, level_minutes=20, break_every_levels=4).breaks[:2]
((4, 10), (8, 10))
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.tournament import BlindLevel

# How much the big blind grows from one level to the next.
SPEEDS = {"slow": 1.25, "steady": 1.4, "fast": 1.7}
STACK_IN_FIRST_BIG_BLINDS = 75
ANTES_FROM = 10  # times the first big blind
ENDS_AT = 4  # starting stacks: the big blind of the last level
MOST_LEVELS = 60
_MANTISSAS = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)
_SLOWEST, _FASTEST = 1.15, 3.0  # the growth a target length may ask for, at the extremes


@dataclass(frozen=True, slots=True)
class QuickStructure:
    """The levels, and the breaks as (after level n, minutes), n = 1 for the first."""

    levels: tuple[BlindLevel, ...]
    breaks: tuple[tuple[int, int], ...]


# Amounts a dealer would use; a big blind is also even, so its half is a whole chip.
_ROUND = sorted({round(m * 10**power) for power in range(11) for m in _MANTISSAS} - {0})
_BIG_BLINDS = [amount for amount in _ROUND if amount % 2 == 0]


def _nearest(ideal: float, amounts: list[int], above: int = 0) -> int:
    """The amount nearest ``ideal`` (on a log scale) of those more than ``above``."""
    bigger = [amount for amount in amounts if amount > above]
    return min(bigger, key=lambda amount: abs(math.log(amount / max(ideal, 1.0))))


def _levels_before(minutes: float, level_minutes: int, break_every: int, break_minutes: int) -> int:
    """How many levels have begun when ``minutes`` have passed since the start."""
    begun, clock = 0, 0.0
    while clock <= minutes and begun < MOST_LEVELS:
        begun += 1
        clock += level_minutes
        if break_every and begun % break_every == 0:
            clock += break_minutes
    return begun


def quick_structure(
    *,
    starting_stack: int,
    level_minutes: int,
    speed: str = "steady",
    target_minutes: int | None = None,
    break_every_levels: int = 0,
    break_minutes: int = 10,
) -> QuickStructure:
    """The structure these choices make (see the module's docstring).

    ``speed`` is a name in ``SPEEDS``; ``target_minutes``, when given, decides the
    speed instead. ``break_every_levels`` 0 means no breaks.
    """
    if starting_stack < 2 or level_minutes < 1 or break_every_levels < 0:
        raise ValueError("a stack of at least 2, levels of a minute or more")
    first = _nearest(starting_stack / STACK_IN_FIRST_BIG_BLINDS, _BIG_BLINDS)
    growth = SPEEDS[speed]
    if target_minutes is not None:
        reached = _levels_before(target_minutes, level_minutes, break_every_levels, break_minutes)
        steps = max(reached - 1, 1)
        wanted = (max(starting_stack, first * 2) / first) ** (1 / steps)
        growth = min(max(wanted, _SLOWEST), _FASTEST)
    levels: list[BlindLevel] = []
    big, ideal = first, float(first)
    # Each level is at least one rounded amount above the last (ten to a power of
    # ten), so four stacks from a 75th of one is reached within about 25 levels.
    while True:
        ante = _nearest(big / 8, _ROUND) if big >= first * ANTES_FROM else 0
        levels.append(BlindLevel(big // 2, big, ante, level_minutes))
        if big >= starting_stack * ENDS_AT:
            break
        ideal *= growth
        big = _nearest(ideal, _BIG_BLINDS, above=big)
    # a break comes between two levels, so never after the last one
    every = break_every_levels
    placed = range(every, len(levels), every) if every else ()
    return QuickStructure(tuple(levels), tuple((after, break_minutes) for after in placed))

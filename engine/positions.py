"""Button and blinds from one hand to the next, with eliminations (rules 17, 18).

Felt uses the dead-button convention of the TDA rules (rule 32 "dead
button", rule 34 heads-up): the big blind moves forward exactly one
player each hand, skipping empty seats, so nobody posts it twice in a row
or misses it. The small blind is posted by last hand's big blind; if that
player busted, there is no small blind this hand (dead small blind). The
button goes to last hand's small-blind position, even when that seat is now
empty (dead button). When two players are left, the player who is not due
the big blind takes the button and posts the small blind (rule 18), so the
heads-up rule holds from then on.

>>> first = first_positions(button=0, occupied=(0, 1, 2, 3))
>>> first
Positions(button=0, small_blind_seat=1, big_blind_seat=2)
>>> next_positions(first, occupied=(0, 1, 3))  # seat 2 busted
Positions(button=1, small_blind_seat=None, big_blind_seat=3)
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Positions:
    """Where the button and blinds are; ``small_blind_seat`` is None for a dead small blind.

    Pass them to ``engine.new_hand`` as ``button``, ``small_blind_seat``
    (``engine.NO_SMALL_BLIND`` when None) and ``big_blind_seat``.
    """

    button: int
    small_blind_seat: int | None
    big_blind_seat: int


def _seat_after(seat: int, occupied: Collection[int], seat_count: int) -> int:
    """The first occupied seat clockwise after ``seat``."""
    return next(
        (seat + k) % seat_count
        for k in range(1, seat_count + 1)
        if (seat + k) % seat_count in occupied
    )


def _check(occupied: Collection[int], seat_count: int) -> None:
    if len(set(occupied)) < 2:
        raise ValueError("positions need at least two players with chips")
    if any(not 0 <= seat < seat_count for seat in occupied):
        raise ValueError(f"occupied seats must be seat numbers from 0 to {seat_count - 1}")


def first_positions(button: int, occupied: Collection[int], seat_count: int = 6) -> Positions:
    """Positions for the first hand, the button on ``button`` (drawn by the caller).

    An empty ``button`` seat moves the button to the next player. Heads-up,
    the button posts the small blind (rule 8).
    """
    _check(occupied, seat_count)
    if button not in occupied:
        button = _seat_after(button, occupied, seat_count)
    if len(set(occupied)) == 2:
        return Positions(button, button, _seat_after(button, occupied, seat_count))
    small_blind = _seat_after(button, occupied, seat_count)
    return Positions(button, small_blind, _seat_after(small_blind, occupied, seat_count))


def next_positions(
    previous: Positions, occupied: Collection[int], seat_count: int = 6
) -> Positions:
    """Positions for the next hand, given last hand's and who has chips now."""
    _check(occupied, seat_count)
    big_blind = _seat_after(previous.big_blind_seat, occupied, seat_count)  # rule 17
    if len(set(occupied)) == 2:
        # rule 18: the other player is on the button and posts the small blind
        button = _seat_after(big_blind, occupied, seat_count)
        return Positions(button, button, big_blind)
    if previous.small_blind_seat is not None:
        button = previous.small_blind_seat
    else:
        # last hand's small blind was dead: its (empty) seat sat just before
        # last hand's big blind, and the button moves onto it
        button = (previous.big_blind_seat - 1) % seat_count
    small_blind = previous.big_blind_seat if previous.big_blind_seat in occupied else None
    if button == big_blind:
        # from heads-up, where the button posted the small blind and is now the big
        # blind (a player joined or came back): the button goes just before the small
        # blind, dead if that seat is empty
        button = (previous.big_blind_seat - 1) % seat_count
    return Positions(button, small_blind, big_blind)


def seats_passed(previous: Positions, positions: Positions, seat_count: int = 6) -> tuple[int, ...]:
    """The seats the big blind went past from ``previous`` to ``positions``: those
    strictly between last hand's big blind and this hand's, clockwise. A player sitting
    out there at a cash table missed the big blind (rule 29 of docs/rules.md).

    >>> seats_passed(Positions(0, 1, 2), Positions(1, 2, 5))  # seats 3 and 4 sat out
    (3, 4)
    >>> seats_passed(Positions(0, 1, 2), Positions(1, 2, 3))
    ()
    """
    gap = (positions.big_blind_seat - previous.big_blind_seat) % seat_count
    return tuple((previous.big_blind_seat + k) % seat_count for k in range(1, gap))

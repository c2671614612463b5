"""The host changes stacks at a friends' table: a correction of one player's stack,
or chips moved from one player to another (docs/table.md, "The host").

Only for seats not dealt into the hand in play (between hands, any seat): a stack
in a hand belongs to the hand until it ends. Each change is ledger rows written in
its transaction, so the ledger still adds up to the chips on the table: a
correction is one row of the difference (signed), a transfer two rows that add up
to zero. The table keeps the last few changes for everyone's hand log.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from accounts.models import User
from tables.errors import BadSeat, BadStack
from tables.models import ChipMovement, Seat
from tables.play import Play
from tables.services import ledger, seats
from tables.services import play as p
from tables.services.host import lock_as_host

MAX_STACK = 1_000_000_000  # far above any real game; a seat's column holds 2**31 - 1
KEPT_CHANGES = 10  # the hand log shows the changes since the last hand or two


def _player(play: Play, number: int) -> Seat:
    """The person (not a bot) in seat ``number``, not dealt into the hand in play."""
    seat = play.seats.get(number)
    if seat is None or seat.is_bot or seat.user_id is None:
        raise BadSeat(f"Nobody sits in seat {number + 1}.")
    if seats.is_in_hand(play, seat):
        raise BadStack(f"{seat.name} is in the hand in play: change the stack once it is over.")
    return seat


def _note(play: Play, change: dict[str, Any]) -> None:
    table = play.table
    kept = [*table.stack_changes, {"hand_number": table.hand_number, **change}]
    table.stack_changes = kept[-KEPT_CHANGES:]


def stack_set(*, table_id: int, user: User, seat: int, stack: int) -> int:
    """The player in ``seat`` has ``stack`` chips from now on: the difference is a
    ``correction`` row of the ledger (chips onto the table, or off it)."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        target = _player(play, seat)
        if not 0 <= stack <= MAX_STACK:
            raise BadStack(f"A stack is from 0 to {MAX_STACK:,} chips.")
        before = target.stack
        if stack == before:
            raise BadStack(f"{target.name} has {before} already.")
        target.stack = stack
        if stack > 0:
            target.wants_rebuy = False  # chips again: nothing to rebuy
        ledger.record(play.table, target, ChipMovement.Kind.CORRECTION, stack - before)
        _note(play, {"kind": "set", "name": target.name, "from": before, "to": stack})
        p.plan_next_hand(play)
        p.commit(play)
        return play.table.seq


def chips_move(*, table_id: int, user: User, from_seat: int, to_seat: int, amount: int) -> int:
    """``amount`` chips go from the stack in ``from_seat`` to the one in ``to_seat``
    (a pot pushed to the wrong player, say): two ``transfer`` rows, -amount and +amount."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        giver, taker = _player(play, from_seat), _player(play, to_seat)
        if giver.number == taker.number:
            raise BadStack("Chips move between two different players.")
        if amount < 1:
            raise BadStack("Move at least 1 chip.")
        if amount > giver.stack:
            raise BadStack(f"{giver.name} has only {giver.stack}.")
        if taker.stack + amount > MAX_STACK:
            raise BadStack(f"A stack is at most {MAX_STACK:,} chips.")
        giver.stack -= amount
        taker.stack += amount
        taker.wants_rebuy = False
        ledger.record(play.table, giver, ChipMovement.Kind.TRANSFER, -amount)
        ledger.record(play.table, taker, ChipMovement.Kind.TRANSFER, amount)
        _note(play, {"kind": "move", "amount": amount, "from": giver.name, "to": taker.name})
        p.plan_next_hand(play)
        p.commit(play)
        return play.table.seq

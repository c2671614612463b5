"""The chips a friends' table's players bring and take: rows of ``ChipMovement``.

Called by the seat services inside their transaction (the table row locked),
never on their own: a row is written with the seat change that moves the chips.
"""

from __future__ import annotations

from accounts.models import User
from tables import kinds
from tables.models import ChipMovement, Seat, Table


def comeback_stack(table: Table, user: User) -> int | None:
    """What ``user`` cashed out here last, when they left with chips; None when they
    left busted (or never played here): then they buy the starting stack. Leaving and
    coming back is no way to shed a short stack or to bank a big one."""
    last = ChipMovement.objects.filter(table=table, user=user).order_by("-created_at", "-id")
    latest = last.first()
    if latest is not None and latest.kind == ChipMovement.Kind.CASH_OUT and latest.amount > 0:
        return latest.amount
    return None


def sit_down_stack(table: Table, user: User) -> tuple[int, str]:
    """The stack ``user`` sits down with and the ledger row it makes: the stack they
    cashed out here, brought back (a comeback: no new chips), or a fresh stack: a
    buy-in the first time, a rebuy for a player who bought in here before (busted,
    or left busted, and came back)."""
    carried = comeback_stack(table, user)
    if carried is not None:
        return carried, ChipMovement.Kind.COMEBACK
    if has_played_here(table, user):
        return table.starting_stack, ChipMovement.Kind.REBUY
    return table.starting_stack, ChipMovement.Kind.BUY_IN


def has_played_here(table: Table, user: User) -> bool:
    """Whether ``user`` has brought chips to this table before (a ledger row)."""
    return ChipMovement.objects.filter(table=table, user=user).exists()


def record(table: Table, seat: Seat, kind: str, amount: int) -> None:
    """A movement of ``seat``'s player, when the table's kind keeps a ledger.

    Bumps ``table.ledger_version``, which the caller's ``commit`` saves with the
    table: a snapshot's kept totals (``tables.ledger_summary``) are then read again.
    """
    if kinds.of(table).keeps_ledger and not seat.is_bot:
        ChipMovement.objects.create(table=table, user_id=seat.user_id, kind=kind, amount=amount)
        table.ledger_version += 1


def cash_out(table: Table, seat: Seat) -> None:
    """``seat`` is leaving the table with the chips on it (between hands)."""
    record(table, seat, ChipMovement.Kind.CASH_OUT, seat.stack)

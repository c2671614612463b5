"""The chips a friends' table's players bring and take: rows of ``ChipMovement``.

Called by the seat services inside their transaction (the table row locked),
never on their own: a row is written with the seat change that moves the chips.
"""

from __future__ import annotations

from accounts.models import User
from config.adapters.compiled_query import CompiledQuery
from tables import kinds
from tables.models import ChipMovement, Seat, Table

# Read at every sit-down (a whole table's at once when a server comes back).
_latest_movement = CompiledQuery(
    lambda table_id, user_id: (
        ChipMovement.objects.filter(table_id=table_id, user_id=user_id)
        .only("kind", "amount")
        .order_by("-created_at", "-id")[:1]
    )
)


def sit_down_stack(table: Table, user: User) -> tuple[int, str]:
    """The stack ``user`` sits down with and the ledger row it makes: the stack they
    cashed out here last, when they left with chips, brought back (a comeback: no new
    chips; leaving and coming back is no way to shed a short stack or to bank a big
    one); else a fresh stack: a buy-in the first time, a rebuy for a player who
    brought chips here before (busted, or left busted, and came back)."""
    found = _latest_movement.rows(table.pk, user.pk)
    if not found:
        return table.starting_stack, ChipMovement.Kind.BUY_IN
    latest = found[0]
    if latest.kind == ChipMovement.Kind.CASH_OUT and latest.amount > 0:
        return latest.amount, ChipMovement.Kind.COMEBACK
    return table.starting_stack, ChipMovement.Kind.REBUY


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

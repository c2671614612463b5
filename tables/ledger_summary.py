"""The ledger's summary a friends' table's snapshot carries: each player's chips
bought in, cashed out, stack and net, from ``ChipMovement`` rows (docs/table.md,
"Chips that add up"); ``tables.snapshot`` adds it to every viewer's TABLE."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import connection

from accounts.models import User
from tables import kinds
from tables.models import DEPARTED_NAME, ChipMovement, Seat, Table


def ledger_summary(table: Table, seats: Mapping[int, Seat]) -> list[dict[str, Any]] | None:
    """Per player who brought chips here: bought in (buy-ins and rebuys: new chips
    only), cashed out (for good: a stack brought back is no longer out), the host's
    corrections (chips put on or taken off the stack: owed or credited, so they leave
    the net as it was) and chips the host moved to or from them (which count in the
    net, as a pot would), stack (as of the last hand's end) and net; None at kinds
    without a ledger.

    The totals are kept while the table's ledger is unchanged (``_movement_totals``);
    the names are not: a seated player's comes from their seat's user, read with the
    seats for this change, any other's is read now, and a member whose account has
    been deleted since joins the former members' row.
    """
    if not kinds.of(table).keeps_ledger:
        return None
    totals = _movement_totals(table)
    names = _public_names({user_id for user_id in totals if user_id is not None}, seats)
    stacks = {seat.user_id: seat.stack for seat in seats.values() if seat.user_id is not None}
    rows: dict[int | None, dict[str, Any]] = {}
    for user_id, total in sorted(totals.items(), key=lambda item: item[1].first):
        key = user_id if user_id in names else None  # None: a former member
        row = rows.setdefault(
            key,
            {
                "name": names[key] if key is not None else DEPARTED_NAME,
                "bought_in": 0,
                "cashed_out": 0,
                "corrected": 0,
                "moved": 0,
            },
        )
        row["bought_in"] += total.bought_in
        row["cashed_out"] += total.cashed_out
        row["corrected"] += total.corrected
        row["moved"] += total.moved
    for user_id, row in rows.items():
        row["stack"] = stacks.get(user_id, 0) if user_id is not None else 0
        row["net"] = row["cashed_out"] + row["stack"] - row["bought_in"] - row["corrected"]
    return list(rows.values())


@dataclass
class MovementTotals:
    """One player's chip movements at a table, added up."""

    first: int  # where their first movement comes among the table's: the rows' order
    bought_in: int = 0
    cashed_out: int = 0
    corrected: int = 0  # the host's corrections, signed
    moved: int = 0  # chips the host moved to (+) or from (-) them


# The totals last read for each table in this process, with the ledger_version
# they were read at. Every movement written bumps it in the same transaction
# (tables/services/ledger.py), so an equal version has the same movements and a
# snapshot reads none of them again. A deleted member's movements lose their
# user then without a bump; ``ledger_summary`` finds them gone by their name.
_recent_totals: dict[int, tuple[int, dict[int | None, MovementTotals]]] = {}
RECENT_TOTALS_MAX = 1024


def _movement_totals(table: Table) -> dict[int | None, MovementTotals]:
    """Per user id (None: former members), in the order of their first movement."""
    recent = _recent_totals.get(table.pk)
    if recent is not None and recent[0] == table.ledger_version:
        return recent[1]
    totals: dict[int | None, MovementTotals] = {}
    movements = ChipMovement.objects.filter(table=table).order_by("created_at", "id")
    for rank, (user_id, kind, amount) in enumerate(
        movements.values_list("user_id", "kind", "amount")
    ):
        total = totals.setdefault(user_id, MovementTotals(first=rank))
        if kind == ChipMovement.Kind.CASH_OUT:
            total.cashed_out += amount
        elif kind == ChipMovement.Kind.COMEBACK:  # back from what was cashed out
            total.cashed_out -= amount
        elif kind == ChipMovement.Kind.CORRECTION:
            total.corrected += amount
        elif kind == ChipMovement.Kind.TRANSFER:
            total.moved += amount
        else:
            total.bought_in += amount
    # Not kept from inside a transaction: it may yet roll back, and the version it
    # saw be written again with other movements.
    if not connection.in_atomic_block:
        if len(_recent_totals) >= RECENT_TOTALS_MAX:
            _recent_totals.clear()
        _recent_totals[table.pk] = (table.ledger_version, totals)
    return totals


def _public_names(user_ids: set[int], seats: Mapping[int, Seat]) -> dict[int, str]:
    """The public name of each of ``user_ids`` whose account still exists: from the
    seats' users (read with the seats) and, for players not seated, from the database."""
    names = {
        seat.user_id: seat.user.public_name
        for seat in seats.values()
        if seat.user_id in user_ids and seat.user is not None
    }
    if missing := user_ids - names.keys():
        for user in User.objects.filter(pk__in=missing).only("username", "display_name"):
            names[user.pk] = user.public_name
    return names

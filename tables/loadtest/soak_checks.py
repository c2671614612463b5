"""What ``manage.py soak`` watches and checks, apart from its clients.

- ``Watch``: every half second, each soak table's wake-up as the database has
  it: how far past due one still waiting is (a wake-up never applied shows
  only here) and how long a table has had nothing due at all once it has
  dealt (``wake_at`` null, the signature of a table that dead-ends).
- ``chip_problems``: after the run, every hand of every soak table adds up,
  a seat's stack changes between its hands only by a rebuy of a busted seat
  to the starting stack, and a friends' table's ledger holds its seats' chips.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import Sum

from tables.models import ChipMovement, Hand, HandPlayer, Seat, Table


@dataclass
class Watch:
    """The tables' wake-ups as sampled from the database, per table."""

    overdue: dict[int, float] = field(default_factory=dict)  # seconds past due, largest
    idle: dict[int, float] = field(default_factory=dict)  # longest with nothing due
    idle_since: dict[int, datetime] = field(default_factory=dict)
    samples: int = 0

    def sample(self, table_ids: Iterable[int], now: datetime) -> None:
        rows = Table.objects.filter(pk__in=list(table_ids)).values_list(
            "pk", "wake_at", "hand_number"
        )
        self.samples += 1
        for table_id, wake_at, hands in rows:
            self.overdue.setdefault(table_id, 0.0)
            self.idle.setdefault(table_id, 0.0)
            if wake_at is None and hands == 0:
                continue  # its players are still sitting down: not a stall
            if wake_at is None:
                since = self.idle_since.setdefault(table_id, now)
                self.idle[table_id] = max(self.idle[table_id], (now - since).total_seconds())
                continue
            self.idle_since.pop(table_id, None)
            late = (now - wake_at).total_seconds()
            self.overdue[table_id] = max(self.overdue[table_id], late)


def hands_dealt(table_ids: Iterable[int], since: datetime) -> dict[int, int]:
    """Hands each table dealt from ``since`` on."""
    counts = {table_id: 0 for table_id in table_ids}
    started = Hand.objects.filter(table_id__in=list(counts), started_at__gte=since)
    for table_id in started.values_list("table_id", flat=True):
        counts[table_id] += 1
    return counts


def chip_problems(table_ids: Iterable[int]) -> tuple[int, list[str]]:
    """(hands checked, what does not add up) over the finished hands of the tables."""
    ids = list(table_ids)
    tables = {t.pk: t for t in Table.objects.filter(pk__in=ids)}
    problems: list[str] = []
    players = HandPlayer.objects.filter(hand__table_id__in=ids, hand__ended_at__isnull=False)
    rows = players.values_list(
        "hand__table_id", "hand__number", "seat", "user_id", "starting_stack", "final_stack", "net"
    ).order_by("hand__table_id", "hand__number", "seat")
    nets: dict[tuple[int, int], int] = defaultdict(int)
    last: dict[tuple[int, int, int | None], tuple[int, int]] = {}  # (table, seat, user)
    for table_id, number, seat, user_id, start, final, net in rows:
        nets[(table_id, number)] += net
        if final != start + net:
            problems.append(f"table {table_id} hand {number} seat {seat}: {start}{net:+}≠{final}")
        before = last.get((table_id, seat, user_id))
        rebuy = tables[table_id].starting_stack
        if before is not None and start != before[1] and not (before[1] == 0 and start == rebuy):
            problems.append(
                f"table {table_id} seat {seat}: ended hand {before[0]} with {before[1]}, "
                f"began hand {number} with {start}"
            )
        last[(table_id, seat, user_id)] = (number, final)
    problems += [
        f"table {table_id} hand {number}: the nets add up to {total:+}"
        for (table_id, number), total in nets.items()
        if total != 0
    ]
    problems += [
        problem
        for table in tables.values()
        if table.kind == Table.Kind.FRIENDS
        for problem in _ledger_problems(table.pk)
    ]
    return len(nets), problems


def _ledger_problems(table_id: int) -> list[str]:
    """A friends' table's chips in (buy-ins, rebuys) less out (cash-outs) are its seats'
    stacks: read under the table's lock, as of one moment."""
    with transaction.atomic():
        list(Table.objects.select_for_update().filter(pk=table_id))
        movements = ChipMovement.objects.filter(table_id=table_id)
        into = movements.exclude(kind=ChipMovement.Kind.CASH_OUT).aggregate(n=Sum("amount"))["n"]
        out = movements.filter(kind=ChipMovement.Kind.CASH_OUT).aggregate(n=Sum("amount"))["n"]
        stacks = Seat.objects.filter(table_id=table_id).aggregate(n=Sum("stack"))["n"]
    held = (into or 0) - (out or 0)
    if held != (stacks or 0):
        return [f"table {table_id}: the ledger holds {held}, the seats {stacks or 0}"]
    return []

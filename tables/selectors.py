"""Reads of live tables: a viewer's snapshot of one, the ledger, what is due, the
tables a member plays at, and the friends' tables with a free seat. The snapshot itself is built in
``tables/snapshot.py``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone

from accounts.models import User
from config.adapters.compiled_query import CompiledQuery
from tables import kinds
from tables.errors import TableNotFound
from tables.models import ChipMovement, HandPlayer, Seat, Table
from tables.play import hand_state
from tables.snapshot import build_snapshot

UNREAD_ACCOUNT_COLUMNS = (
    "password",
    "last_login",
    "date_joined",
    "username_key",
    "display_name_key",
)
# Unordered: the model's ordering starts with the table, whose own ordering the
# query would join the table's row again for (a quarter of this read). Every command
# reads this under the table's lock: the users' columns no table code reads are left
# out, the two dates among them each a text parsed per user (7% of the read).
_seats_of = CompiledQuery(
    lambda table_id: (
        Seat.objects.filter(table_id=table_id)
        .select_related("user")
        .defer(*(f"user__{name}" for name in UNREAD_ACCOUNT_COLUMNS))
        .order_by()
    )
)


def table_seats(table: Table) -> dict[int, Seat]:
    """Occupied seats by number (in that order), with their users."""
    seats = sorted(_seats_of.rows(table.pk), key=lambda seat: seat.number)
    for seat in seats:
        seat.table = table  # what the ORM's ``table.seats`` would have attached
    return {seat.number: seat for seat in seats}


_table = CompiledQuery(lambda table_id: Table.objects.filter(pk=table_id))


def table_get(*, table_id: int) -> Table:
    found = _table.rows(table_id)
    if not found:
        raise TableNotFound()
    return found[0]


def table_snapshot(*, table_id: int, user: User | AnonymousUser | None) -> dict[str, Any]:
    """What ``user`` (seated or not, or anonymous) may see of the table right now."""
    table = table_get(table_id=table_id)
    seats = table_seats(table)
    viewer = next((s for s in seats.values() if user is not None and s.user_id == user.pk), None)
    snapshot = build_snapshot(table, seats, hand_state(table), viewer, timezone.now())
    if viewer is None and user is not None and user.is_authenticated:
        # A player whose seat was cleared (out of a tournament) still hears how it ended.
        snapshot["your_result"] = kinds.of(table).results(table, {user.pk: None}).get(user.pk)
    return snapshot


# The sweep reads the clock as it starts, so a wake-up that falls due just
# after waits for the next sweep, one period later; the grace covers how late
# that one may start and reach the table: beat's timing, a wait behind wake
# tasks in the worker, the tables it applies first. Measured with ten tables
# playing, sweeps started 1.99-2.01 s apart and each ran in under 10 ms.
SWEEP_GRACE_SECONDS = 1.0


def wake_overdue_before(*, now: datetime) -> datetime:
    """A wake-up due before this is overdue: the sweep, which applies everything
    due every ``TABLES_SWEEP_SECONDS``, should have applied it already."""
    return now - timedelta(seconds=settings.TABLES_SWEEP_SECONDS + SWEEP_GRACE_SECONDS)


def tables_overdue(*, now: datetime) -> list[int]:
    """Ids of tables whose wake-up is overdue (``wake_overdue_before``): stuck."""
    overdue = Table.objects.filter(wake_at__lt=wake_overdue_before(now=now))
    return list(overdue.order_by("pk").values_list("id", flat=True))


def tables_due(*, now: datetime) -> list[tuple[int, int]]:
    """(id, seq) of tables whose clock, bot move or next hand is due."""
    return list(Table.objects.filter(wake_at__lte=now).values_list("id", "seq"))


def tables_of(user: User) -> QuerySet[Table]:
    """The tables ``user`` is one of the players of: they own or host it, sit at it,
    played a hand there, or moved chips across its edge (a buy-in, even with no hand
    dealt). These tables show to them wherever tables are listed, listed or not."""
    played = HandPlayer.objects.filter(user=user).values("hand__table_id")
    bought = ChipMovement.objects.filter(user=user).values("table_id")
    seated = Seat.objects.filter(user=user).values("table_id")
    return Table.objects.filter(
        Q(owner=user) | Q(host=user) | Q(pk__in=seated) | Q(pk__in=played) | Q(pk__in=bought)
    )


def may_reach(table: Table, user: User | AnonymousUser | None, *, admitted: set[int]) -> bool:
    """Whether ``user`` may open ``table`` at all (its page, socket or join page).

    An unlisted friends' table opens only to its players (``tables_of``), staff, and
    whoever came with its link's key (``admitted``: the ids the session holds,
    tables/links.py); to anyone else it is a table that does not exist. Other
    tables keep their kind's rules (``kinds.check_watch``)."""
    if table.is_listed or not kinds.of(table).is_by_link or table.pk in admitted:
        return True
    if user is None or not user.is_authenticated:
        return False
    return user.is_staff or tables_of(user).filter(pk=table.pk).exists()


# Friends' tables with a free seat, at most this many on the lobby page.
OPEN_TABLES_SHOWN = 20


def tournament_tables_seated_at(user: User) -> QuerySet[Table]:
    """The tournament tables where ``user`` still has a seat with chips: the lobby's
    "Take your seat" for each, newest first. (A friends' table of theirs is in the
    lobby's list of tables already.)"""
    with_chips = Seat.objects.filter(Q(stack__gt=0) | Q(chips_to_add__gt=0), user=user)
    return Table.objects.filter(
        pk__in=with_chips.values("table_id"),
        kind=Table.Kind.TOURNAMENT,
        closed_at__isnull=True,
    ).order_by("-created_at")


def tables_with_free_seats(viewer: User | AnonymousUser | None = None) -> QuerySet[Table]:
    """Friends' tables with fewer players than seats, newest first, that ``viewer``
    may see listed: those their host lists in the lobby, and the viewer's own
    (``tables_of``). An unlisted table is reachable only by its link."""
    shown = Q(is_listed=True)
    if viewer is not None and viewer.is_authenticated:
        shown |= Q(pk__in=tables_of(viewer).values("pk"))
    return (
        Table.objects.filter(shown, kind=Table.Kind.FRIENDS, closed_at__isnull=True)
        .annotate(players=Count("seats"))
        .filter(players__lt=F("seat_count"))
        .order_by("-created_at")[:OPEN_TABLES_SHOWN]
    )


def ledger_movements(*, table_id: int, user: User) -> list[ChipMovement]:
    """Every chip movement at a table, for its owner and the players in its ledger."""
    table = table_get(table_id=table_id)
    movements = ChipMovement.objects.filter(table=table).select_related("user")
    is_player = movements.filter(user=user).exists()
    is_runner = user.pk in (table.owner_id, table.host_id)
    if not kinds.of(table).keeps_ledger or (not is_runner and not is_player):
        raise TableNotFound("There is no ledger of this table for you.")
    return list(movements.order_by("created_at", "id"))

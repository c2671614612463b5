"""Presence: which seated players have the table open, and since when one has not.

Each open table socket of a seated player holds a lease (a ``PresenceLease``
row named after its channel). Opening a socket takes one, closing it gives it
back. A lease names its holder, the server process with the socket open (a
``PresenceHolder`` row), and is alive while its holder is: each process renews
its own row every third of ``TABLES_PRESENCE_LEASE_SECONDS``, one write
however many sockets it has open (``presences_renew``; tables/lease_renewals.py).
A process that dies closes nothing and renews nothing: the sweep finds its
holder stale once it has not been renewed for a lease time and drops its
leases, and a player whose last lease went that way is away since the holder
was last renewed. A stale holder left with no lease is then deleted.

Since a renewal no longer touches the leases, it counts them (one statement,
on an index) and compares with the sockets the process has open. Where they
differ, it puts the leases right, socket by socket:

- a socket without a lease takes it again: the sweep dropped it while the
  process stalled past a lease time, or taking it failed on a database blink;
- a lease without a socket is given back, and its seat settled as a closed
  socket's: its give-back failed on a blink, or a renewal took it again while
  the socket was closing. Its holder stays alive, so it would never lapse.

A lease missing and another left over cancel in the count, so every
``FULL_CHECK_EVERY``-th renewal compares the channel names themselves: either
is put right within that many renewals (100 s at the 60 s lease).

The sweep drops a holder's leases seat by seat, under the table's and the
seat's locks, and only after locking the holder's row and finding it still
stale. On PostgreSQL (READ COMMITTED) a statement that waited for a row
another transaction changed reads that row again, but not the rows a subquery
of its WHERE read: a DELETE of leases by a subquery on their holders would
drop a process's leases even if its renewal committed while the DELETE ran.
Locking the holder's row instead, the sweep waits for a renewal under way and
reads the row again once it commits: fresh, the holder keeps its leases. A
renewal that comes after the lock waits for the sweep; it then counts
fewer leases than sockets and takes the dropped ones again, as it would after
any lease dropped by mistake.

A player is present while they hold a lease. When that changes, the seat's
``disconnected_at`` changes with it. That is not a change of play: it takes
the table's row lock, then the seat's (the order of every table service,
which deletes a seat's leases with the seat), then the holder's; and bumps no
``seq``: everyone at the table gets a small ``presence`` frame, and every
later snapshot carries it on the seat (``disconnected_since``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from functools import cache

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from config.adapters.compiled_query import CompiledQuery
from config.platform import broadcast
from tables.groups import chat_group
from tables.models import PresenceHolder, PresenceLease, Seat, Table
from tables.snapshot import iso
from tables.sql import column_name, save_fields, table_name

FULL_CHECK_EVERY = 5  # renewals: each this many compares leases and sockets one by one


def lease_seconds() -> float:
    return float(settings.TABLES_PRESENCE_LEASE_SECONDS)


def renew_every_seconds() -> float:
    """How often a process renews its leases: three chances before they lapse."""
    return lease_seconds() / 3


def seat_presence(
    *, table_id: int, user: User, channel_name: str, is_open: bool, holder: str | None = None
) -> None:
    """The socket ``channel_name`` of ``user``'s at the table opened (``is_open``) or
    closed. An opened socket's lease is held by ``holder``, the name of the process
    with the socket open, which has to renew it (``presences_renew``)."""
    if is_open and holder is None:
        raise ValueError("An open socket's lease needs the process holding it.")
    with transaction.atomic():
        _lock_table(table_id)
        found = _members_seat_locked.rows(table_id, user.pk)
        if not found:
            return
        seat, now = found[0], timezone.now()
        with connection.cursor() as cursor:
            if is_open:
                # Renewed with the lease: the sweep never finds a lease of a stale holder
                # (or of none) that was just taken. Both are upserts, locking the holder's
                # row as an UPDATE does.
                renewed_at = PresenceHolder._meta.get_field("renewed_at")
                cursor.execute(
                    _holder_renewed(connection.vendor),
                    [holder, renewed_at.get_db_prep_save(now, connection)],
                )
                (holder_id,) = cursor.fetchone()
                cursor.execute(_lease_taken(connection.vendor), [channel_name, seat.pk, holder_id])
            else:
                cursor.execute(_lease_given_back(connection.vendor), [channel_name])
        _settle(seat, away_since=now)


def presences_renew(
    *, holder: str, sockets: Mapping[str, tuple[int, User]], is_full_check: bool = False
) -> None:
    """The process ``holder`` is alive with these sockets open (channel name -> table id
    and user): its leases run a whole lease time from now. Two statements, whatever
    the number of sockets, unless its leases have to be put right (``is_full_check``:
    compared one by one, not counted)."""
    PresenceHolder.objects.filter(name=holder).update(renewed_at=timezone.now())
    held = PresenceLease.objects.filter(holder__name=holder)
    if not is_full_check and held.count() == len(sockets):
        return
    seat_of = dict(held.values_list("channel_name", "seat_id"))
    for channel_name in sorted(sockets.keys() - seat_of.keys()):
        table_id, user = sockets[channel_name]
        seat_presence(
            table_id=table_id, user=user, channel_name=channel_name, is_open=True, holder=holder
        )
    for channel_name in sorted(seat_of.keys() - sockets.keys()):
        _give_back(channel_name=channel_name, seat_id=seat_of[channel_name])


def presence_sweep(*, now: datetime) -> int:
    """Drop the leases whose holder stopped renewing them, then the stale holders left
    with none; returns how many players that left away."""
    lapsed_before = now - timedelta(seconds=lease_seconds())
    stale = list(
        PresenceHolder.objects.filter(renewed_at__lt=lapsed_before).values_list("pk", flat=True)
    )
    if not stale:
        return 0
    seats = dict(
        PresenceLease.objects.filter(holder__in=stale).values_list("seat_id", "seat__table_id")
    )
    away = 0
    for seat_id, table_id in seats.items():
        with transaction.atomic():
            _lock_table(table_id)
            seat = _locked_seat(pk=seat_id)
            if seat is not None:
                away += _drop_lapsed_leases(seat, lapsed_before=lapsed_before)
    for holder_id in stale:
        with transaction.atomic():
            # Locked, as a socket taking a lease locks its holder: none is taken meanwhile.
            holder = (
                PresenceHolder.objects.select_for_update()
                .filter(pk=holder_id, renewed_at__lt=lapsed_before)
                .first()
            )
            if holder is not None and not holder.leases.exists():
                holder.delete()
    return away


def _drop_lapsed_leases(seat: Seat, *, lapsed_before: datetime) -> bool:
    """Drop the locked seat's leases whose holder, locked, is still stale: one renewed
    since the sweep's first read keeps its leases. Returns whether the player went away.

    The holders are locked after the table and the seat, in the order of their keys,
    as a socket taking a lease locks its holder; FOR NO KEY UPDATE, the lock a
    renewal's UPDATE takes, so that a renewal under way is waited for and the row is
    read again (PostgreSQL) once it commits."""
    holders = list(
        PresenceHolder.objects.select_for_update(no_key=True)
        .filter(pk__in=seat.leases.values("holder_id"), renewed_at__lt=lapsed_before)
        .order_by("pk")
    )
    if not holders:
        return False
    seat.leases.filter(holder__in=holders).delete()
    return _settle(seat, away_since=max(holder.renewed_at for holder in holders))


def _give_back(*, channel_name: str, seat_id: int) -> None:
    """A lease whose socket its process no longer has open, given back as a closing
    socket gives back its own."""
    table_id = Seat.objects.filter(pk=seat_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return  # the seat is gone, and its leases with it
    with transaction.atomic():
        _lock_table(table_id)
        seat = _locked_seat(pk=seat_id)
        if seat is None:
            return
        with connection.cursor() as cursor:
            cursor.execute(_lease_given_back(connection.vendor), [channel_name])
        _settle(seat, away_since=timezone.now())


# Every socket that opens or closes at a seat runs these, all at once when a server
# comes back: compiled once, as the table services' own reads are.
_table_locked = CompiledQuery(
    lambda table_id: Table.objects.select_for_update().only("id").filter(pk=table_id)
)
_members_seat_locked = CompiledQuery(
    lambda table_id, user_id: (
        Seat.objects.select_for_update()
        .filter(table_id=table_id, user_id=user_id)
        .order_by("pk")[:1]
    )  # see _locked_seat
)
_one_lease = CompiledQuery(
    lambda seat_id: PresenceLease.objects.filter(seat_id=seat_id).only("id")[:1]
)


@cache
def _holder_renewed(vendor: str) -> str:
    """The process's holder row renewed, or made: its id returned."""
    name, renewed_at = (column_name(PresenceHolder, field) for field in ("name", "renewed_at"))
    return (
        f"INSERT INTO {table_name(PresenceHolder)} ({name}, {renewed_at}) VALUES (%s, %s) "
        f"ON CONFLICT ({name}) DO UPDATE SET {renewed_at} = excluded.{renewed_at} "
        f"RETURNING {column_name(PresenceHolder, 'id')}"
    )


@cache
def _lease_taken(vendor: str) -> str:
    """A socket's lease, taken by a holder for a seat (again, if the socket had one)."""
    channel, seat, holder = (
        column_name(PresenceLease, field) for field in ("channel_name", "seat", "holder")
    )
    return (
        f"INSERT INTO {table_name(PresenceLease)} ({channel}, {seat}, {holder}) "
        f"VALUES (%s, %s, %s) ON CONFLICT ({channel}) "
        f"DO UPDATE SET {seat} = excluded.{seat}, {holder} = excluded.{holder}"
    )


@cache
def _lease_given_back(vendor: str) -> str:
    channel = column_name(PresenceLease, "channel_name")
    return f"DELETE FROM {table_name(PresenceLease)} WHERE {channel} = %s"


def _lock_table(table_id: int) -> None:
    """The table's row before its seat's, as every table service takes them: a service
    deleting a seat deletes its leases first, so a presence change that locked the seat
    and then reached for a lease would deadlock with it on PostgreSQL."""
    _table_locked.rows(table_id)


def _locked_seat(**match: object) -> Seat | None:
    """The one seat that matches, locked. Ordered by its own key: the model's ordering
    starts with the table's, which would join the table's row, and on PostgreSQL lock
    it a second time in the same statement."""
    return Seat.objects.select_for_update().filter(**match).order_by("pk").first()


def _settle(seat: Seat, *, away_since: datetime) -> bool:
    """Make the seat's ``disconnected_at`` agree with its leases; tell the table of a
    change. Returns whether the player has just gone away."""
    is_present = bool(_one_lease.rows(seat.pk))
    was_present = seat.disconnected_at is None
    if is_present == was_present:
        return False
    seat.disconnected_at = None if is_present else away_since
    save_fields(seat, ["disconnected_at"])
    frame = {
        "type": "presence",
        "seat": seat.number,
        "disconnected_since": iso(seat.disconnected_at),
    }
    event = {"type": "table.presence", "presence": frame}
    table_id = seat.table_id
    transaction.on_commit(lambda: broadcast.send([(chat_group(table_id), event)]))
    return not is_present

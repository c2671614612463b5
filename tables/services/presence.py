"""Presence: which seated players have the table open, and since when one has not.

Each open table socket of a seated player holds a lease (a ``PresenceLease``
row named after its channel). Opening a socket takes one, closing it gives it
back, and while it is open its consumer renews it every third of
``TABLES_PRESENCE_LEASE_SECONDS``. A server that dies closes nothing, so its
leases are only found stale: the sweep drops leases not renewed for a whole
lease time, and a player whose last lease went that way is away since it was
last renewed.

A player is present while they hold a lease. When that changes, the seat's
``disconnected_at`` changes with it. That is not a change of play: it takes
the table's row lock and then the seat's (the order of every table service,
which deletes a seat's leases with the seat) and bumps no ``seq``: everyone at
the table gets a small ``presence`` frame, and every later snapshot carries it
on the seat (``disconnected_since``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from accounts.models import User
from config.platform import broadcast
from tables.groups import chat_group
from tables.models import PresenceLease, Seat, Table
from tables.snapshot import iso


def lease_seconds() -> float:
    return float(settings.TABLES_PRESENCE_LEASE_SECONDS)


def renew_every_seconds() -> float:
    """How often an open socket renews its lease: three chances before it lapses."""
    return lease_seconds() / 3


def seat_presence(*, table_id: int, user: User, channel_name: str, is_open: bool) -> None:
    """The socket ``channel_name`` of ``user``'s at the table opened (``is_open``) or closed."""
    with transaction.atomic():
        _lock_table(table_id)
        seat = _locked_seat(table_id=table_id, user=user)
        if seat is None:
            return
        now = timezone.now()
        if is_open:
            PresenceLease.objects.update_or_create(
                channel_name=channel_name, defaults={"seat": seat, "renewed_at": now}
            )
        else:
            PresenceLease.objects.filter(channel_name=channel_name).delete()
        _settle(seat, away_since=now)


RENEWED_AT_ONCE = 500  # channel names in one statement


def presences_renew(sockets: Mapping[str, tuple[int, User]]) -> None:
    """Open sockets (channel name -> table id and user) are still open: their leases
    run a whole lease time from now, in one statement per ``RENEWED_AT_ONCE``. A lease
    the sweep already dropped (the server stalled past it) is taken again."""
    names = list(sockets)
    for start in range(0, len(names), RENEWED_AT_ONCE):
        chunk = names[start : start + RENEWED_AT_ONCE]
        leases = PresenceLease.objects.filter(channel_name__in=chunk)
        if leases.update(renewed_at=timezone.now()) == len(chunk):
            continue
        held = set(
            PresenceLease.objects.filter(channel_name__in=chunk).values_list(
                "channel_name", flat=True
            )
        )
        for name in chunk:
            if name not in held:
                table_id, user = sockets[name]
                seat_presence(table_id=table_id, user=user, channel_name=name, is_open=True)


def presence_renew(*, table_id: int, user: User, channel_name: str) -> None:
    """One open socket's lease renewed (``presences_renew``)."""
    presences_renew({channel_name: (table_id, user)})


def presence_sweep(*, now: datetime) -> int:
    """Drop the leases whose server stopped renewing them; returns how many players
    that left away."""
    stale = PresenceLease.objects.filter(renewed_at__lt=now - timedelta(seconds=lease_seconds()))
    last_heard = dict(
        stale.values("seat_id").annotate(last=Max("renewed_at")).values_list("seat_id", "last")
    )
    away = 0
    tables = dict(Seat.objects.filter(pk__in=last_heard).values_list("pk", "table_id"))
    for seat_id, last in last_heard.items():
        with transaction.atomic():
            if seat_id in tables:
                _lock_table(tables[seat_id])
            seat = _locked_seat(pk=seat_id)
            if seat is None:
                continue
            # Only this seat's stale leases: one renewed since the first read stays.
            PresenceLease.objects.filter(
                seat=seat, renewed_at__lt=now - timedelta(seconds=lease_seconds())
            ).delete()
            away += _settle(seat, away_since=last)
    return away


def _lock_table(table_id: int) -> None:
    """The table's row before its seat's, as every table service takes them: a service
    deleting a seat deletes its leases first, so a presence change that locked the seat
    and then reached for a lease would deadlock with it on PostgreSQL."""
    Table.objects.select_for_update().filter(pk=table_id).exists()


def _locked_seat(**match: object) -> Seat | None:
    """The one seat that matches, locked. Ordered by its own key: the model's ordering
    starts with the table's, which would join the table's row, and on PostgreSQL lock
    it a second time in the same statement."""
    return Seat.objects.select_for_update().filter(**match).order_by("pk").first()


def _settle(seat: Seat, *, away_since: datetime) -> bool:
    """Make the seat's ``disconnected_at`` agree with its leases; tell the table of a
    change. Returns whether the player has just gone away."""
    is_present = seat.leases.exists()
    was_present = seat.disconnected_at is None
    if is_present == was_present:
        return False
    seat.disconnected_at = None if is_present else away_since
    Seat.objects.filter(pk=seat.pk).update(disconnected_at=seat.disconnected_at)
    frame = {
        "type": "presence",
        "seat": seat.number,
        "disconnected_since": iso(seat.disconnected_at),
    }
    event = {"type": "table.presence", "presence": frame}
    table_id = seat.table_id
    transaction.on_commit(lambda: broadcast.send([(chat_group(table_id), event)]))
    return not is_present

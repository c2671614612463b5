"""Presence: which seated players have the table open, and since when one has not.

A player's seat counts their open table sockets; when the last one closes the
seat is marked disconnected (with the time), and opening one clears it. That
is not a change of play, so it takes the seat's row lock, not the table's, and
bumps no ``seq``: everyone at the table gets a small ``presence`` frame, and
every later snapshot carries it on the seat (``disconnected_since``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from config import broadcast
from tables.groups import chat_group
from tables.models import Seat
from tables.selectors import iso


def seat_presence(*, table_id: int, user: User, is_open: bool) -> None:
    """A socket of ``user``'s at the table opened (``is_open``) or closed."""
    with transaction.atomic():
        seat = Seat.objects.select_for_update().filter(table_id=table_id, user=user).first()
        if seat is None:
            return
        was_away = seat.disconnected_at is not None
        if is_open:
            seat.open_sockets += 1
            seat.disconnected_at = None
        else:
            seat.open_sockets = max(0, seat.open_sockets - 1)
            if seat.open_sockets == 0:
                seat.disconnected_at = timezone.now()
        Seat.objects.filter(pk=seat.pk).update(
            open_sockets=seat.open_sockets,
            disconnected_at=seat.disconnected_at,
        )
        if was_away == (seat.disconnected_at is not None):
            return
        frame = {
            "type": "presence",
            "seat": seat.number,
            "disconnected_since": iso(seat.disconnected_at),
        }
        event = {"type": "table.presence", "presence": frame}
        transaction.on_commit(lambda: broadcast.send([(chat_group(table_id), event)]))

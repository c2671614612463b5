"""What leaves a committed change: per-viewer snapshots to the groups, and the wake task.

Messages are built inside the transaction (so they match the saved ``seq``)
and sent by ``deliver`` from ``transaction.on_commit``. The public group gets
the spectator's view and the list of users who also get a private one; each
seated human's private group gets that user's own view. No group message
ever holds a card its readers may not see.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone

import engine
from tables.models import Seat, Table
from tables.selectors import build_snapshot

log = logging.getLogger(__name__)


def public_group(table_id: int) -> str:
    return f"table-{table_id}"


def private_group(table_id: int, user_id: int) -> str:
    return f"table-{table_id}-user-{user_id}"


@dataclass(frozen=True)
class Wake:
    """When the table next needs attention with nobody acting (None: never)."""

    table_id: int
    seq: int
    at: datetime | None


def snapshot_messages(
    table: Table,
    seats: Mapping[int, Seat],
    state: engine.HandState | None,
    now: datetime,
) -> list[tuple[str, dict[str, Any]]]:
    """(group, message) pairs: the spectator view, then one private view per seated human."""
    humans = [seat for seat in seats.values() if seat.user_id is not None]
    public = {
        "type": "table.snapshot",
        "seq": table.seq,
        "table": build_snapshot(table, seats, state, None, now),
        "private_user_ids": [seat.user_id for seat in humans],
    }
    messages = [(public_group(table.pk), public)]
    for seat in humans:
        assert seat.user_id is not None
        private = {
            "type": "table.private",
            "seq": table.seq,
            "table": build_snapshot(table, seats, state, seat, now),
        }
        messages.append((private_group(table.pk, seat.user_id), private))
    return messages


def deliver(messages: list[tuple[str, dict[str, Any]]], wake: Wake) -> None:
    """Runs after commit: schedule first (it matters more), then broadcast."""
    schedule(wake)
    send(messages)


def schedule(wake: Wake) -> None:
    if wake.at is None:
        return
    from tables.tasks import wake as wake_task  # the tasks module imports the services

    countdown = max(0.0, (wake.at - timezone.now()).total_seconds())
    try:
        wake_task.apply_async((wake.table_id, wake.seq), countdown=countdown)
    except Exception:  # the sweep applies it anyway: a lost task loses nothing
        log.exception("could not queue the wake task of table %s", wake.table_id)


def send(messages: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(_send_all)(layer, messages)
    except Exception:  # clients re-sync from the next snapshot or on reconnect
        log.exception("could not broadcast a table snapshot")


async def _send_all(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    for group, message in messages:
        await layer.group_send(group, message)

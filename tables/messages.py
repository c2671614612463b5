"""The group messages a committed change sends: one per viewer, each view encoded once.

Built from the objects a service just saved (so they match the saved ``seq``).
The public group gets the spectator's view and the list of users who also get
a private one; each seated human's private group gets that user's own view.
No group message ever holds a card its readers may not see: every view comes
from ``snapshot.build_snapshots``, which takes the cards from ``engine.views``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

import engine
from config.platform.broadcast import Messages
from tables.groups import private_group, public_group
from tables.models import Seat, Table
from tables.snapshot import build_snapshots, snapshot_frame


def snapshot_messages(
    table: Table,
    seats: Mapping[int, Seat],
    state: engine.HandState | None,
    now: datetime,
    gone_user_ids: Iterable[int] = (),
) -> Messages:
    """(group, message) pairs: the spectator view, then one private view per seated human.

    Seated players' sockets leave the public group, so the users who lost
    their seat in this change (``gone_user_ids``) get the spectator view in
    their private group: it tells their sockets to follow the public one again.
    """
    humans = [seat for seat in seats.values() if seat.user_id is not None]
    spectator_view, *private_views = build_snapshots(table, seats, state, [None, *humans], now)
    # Each view is encoded once here; every socket it reaches sends the same text.
    spectator_frame = snapshot_frame(spectator_view)
    decision = spectator_view["decision"]  # the same in every view
    public = {
        "type": "table.snapshot",
        "seq": table.seq,
        "decision": decision,
        "is_seated": False,
        "frame": spectator_frame,
        "private_user_ids": [seat.user_id for seat in humans],
    }
    messages: Messages = [(public_group(table.pk), public)]
    seated = {seat.user_id for seat in humans}
    for user_id in sorted(set(gone_user_ids) - seated):
        gone = {
            "type": "table.private",
            "seq": table.seq,
            "decision": decision,
            "is_seated": False,
            "frame": spectator_frame,
        }
        messages.append((private_group(table.pk, user_id), gone))
    for seat, private_view in zip(humans, private_views, strict=True):
        assert seat.user_id is not None
        private = {
            "type": "table.private",
            "seq": table.seq,
            "decision": decision,
            "is_seated": private_view["your_seat"] is not None,
            "frame": snapshot_frame(private_view),
        }
        messages.append((private_group(table.pk, seat.user_id), private))
    return messages


REMOVED_TEXT = "The host removed you from the table"


def removed_notices(table_id: int, user_ids: Iterable[int]) -> Messages:
    """A ``removed`` notice to each player the host removed whose seat was just freed,
    in their private group: only their pages of this table hear it, after the
    snapshot that shows them without a seat."""
    notice = {"kind": "removed", "text": REMOVED_TEXT, "table_id": table_id}
    message = {"type": "table.notice", "notice": notice}
    return [(private_group(table_id, user_id), message) for user_id in user_ids]

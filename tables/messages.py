"""The group message a committed change sends: one per change, each view encoded once.

Built from the objects a service just saved (so they match the saved ``seq``).
Every socket at the table is in its public group and gets the one message,
which holds the spectators' frame and each seated human's own, by user id;
each socket sends its member's frame, or the spectators' (docs/architecture.md,
"The write path"). One message, not one per viewer: the channel layer's publishing
and receiving were paid once per group (docs/performance.md, session 28).
No frame holds a card its viewer may not see: every view comes from
``snapshot.build_snapshots``, which takes the cards from ``engine.views``.
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
) -> Messages:
    """The change's (group, message): the spectators' frame and each seated human's.

    ``frames`` is keyed by the seated members' user ids as text (the channel layer's
    encoding takes no other keys); a member not in it, seated no longer or never,
    gets the spectators' frame.
    """
    humans = [seat for seat in seats.values() if seat.user_id is not None]
    spectator_view, *private_views = build_snapshots(table, seats, state, [None, *humans], now)
    frames = {
        str(seat.user_id): snapshot_frame(private_view)
        for seat, private_view in zip(humans, private_views, strict=True)
    }
    change = {
        "type": "table.snapshot",
        "seq": table.seq,
        "decision": spectator_view["decision"],  # the same in every view
        "frame": snapshot_frame(spectator_view),
        "frames": frames,
    }
    return [(public_group(table.pk), change)]


REMOVED_TEXT = "The host removed you from the table"


def removed_notices(table_id: int, user_ids: Iterable[int]) -> Messages:
    """A ``removed`` notice to each player the host removed whose seat was just freed,
    in their private group: only their pages of this table hear it, after the
    snapshot that shows them without a seat."""
    notice = {"kind": "removed", "text": REMOVED_TEXT, "table_id": table_id}
    message = {"type": "table.notice", "notice": notice}
    return [(private_group(table_id, user_id), message) for user_id in user_ids]

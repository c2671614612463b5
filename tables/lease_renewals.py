"""Every open table socket of a server process renews its presence lease in one
statement a renewal period (tables/services/presence.py, ``presences_renew``).

A socket that renewed its own lease cost a timer, a hop to the database thread
and a write transaction every ``renew_every_seconds``, whether or not anything
happened at its table: at a club's hundreds of idle sockets, the larger part of
what an idle socket cost the server (docs/performance.md, session 27). The
process keeps one list of its open seated sockets instead and renews them all
at once. A lease is still only ever renewed by a process that holds the socket
open, so the sweep still finds a dead server's players away within a lease time.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.db import database_sync_to_async

from tables.services import presence

logger = logging.getLogger(__name__)

renew_all = database_sync_to_async(presence.presences_renew)


class LeaseRenewals:
    """The open sockets of this process whose leases to renew, and the one task that
    renews them (started on the event loop of the first socket added)."""

    def __init__(self) -> None:
        self.sockets: dict[str, tuple[int, Any]] = {}  # channel name -> (table id, user)
        self.task: asyncio.Task[None] | None = None

    def add(self, channel_name: str, table_id: int, user: Any) -> None:
        self.sockets[channel_name] = (table_id, user)
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self.renew())

    def discard(self, channel_name: str) -> None:
        self.sockets.pop(channel_name, None)

    async def renew(self) -> None:
        while self.sockets:
            await asyncio.sleep(presence.renew_every_seconds())
            if not self.sockets:
                break
            try:
                await renew_all(dict(self.sockets))
            except Exception:  # a database hiccup: the next renewal tries again
                logger.exception("presence leases of %d sockets not renewed", len(self.sockets))


renewals = LeaseRenewals()

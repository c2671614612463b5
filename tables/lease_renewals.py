"""A server process renews the presence leases of all its open seated sockets by
renewing itself: one row, however many sockets (tables/services/presence.py).

Each lease names its holder, the process with its socket open (a
``PresenceHolder`` row, named once per process here), and lives as long as that
holder is renewed. So a renewal writes one row where it used to write one per
open socket (issue 46: that write was about a fifth of what an idle socket cost
the server), and checks by a count that the process's leases still match the
sockets it has open, putting right the rare lease missing or left over.

The process keeps the list of its open seated sockets for that check: the
channel name, table and user of each, which a lease taken again needs. A
socket is listed before its lease is taken and unlisted before it is given
back, and every database call of the process's sockets and renewals runs on
one thread in the order they were made (``database_sync_to_async``). So a
renewal never sees a lease the list does not have yet, which it would give
back; at worst it takes again the lease of a socket closing under it, and the
next renewal gives that back. A lease still lives no longer than the process
that took it, so the sweep still finds a dead server's players away within a
lease time.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from typing import Any

from channels.db import database_sync_to_async

from tables.services import presence

logger = logging.getLogger(__name__)

renew_all = database_sync_to_async(presence.presences_renew)


def new_holder_name() -> str:
    """This process among all of Felt's, on every machine: its host and process id,
    and a random part so that a process id used again after a restart is not taken
    for the dead process that had it (whose leases the sweep still has to drop)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class LeaseRenewals:
    """The open sockets of this process whose leases to renew, and the one task that
    renews them (started on the event loop of the first socket added)."""

    def __init__(self) -> None:
        self.holder = new_holder_name()
        self.sockets: dict[str, tuple[int, Any]] = {}  # channel name -> (table id, user)
        self.task: asyncio.Task[None] | None = None
        self.renewals_done = 0  # each FULL_CHECK_EVERY-th compares the leases one by one

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
            # Counted once done: a full check that failed is the next renewal's.
            is_full_check = (self.renewals_done + 1) % presence.FULL_CHECK_EVERY == 0
            try:
                await renew_all(
                    holder=self.holder, sockets=dict(self.sockets), is_full_check=is_full_check
                )
                self.renewals_done += 1
            except Exception:  # a database hiccup: the next renewal tries again
                logger.exception("presence leases of %d sockets not renewed", len(self.sockets))


renewals = LeaseRenewals()

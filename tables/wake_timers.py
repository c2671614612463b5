"""Wake-ups a server process applies itself, on its event loop's timers.

A change made in a Daphne process says when its table next needs attention
with nobody acting (a bot's move, a decision's clock, the next hand:
tables/wakeups.py). Queued as a Celery task, each took a cache read, often a
publication to the broker, and then the worker's receiving, holding and running
of the task (docs/performance.md, session 28). Here the process that made the
change keeps one timer for the table and applies the wake-up on its command
threads when it is due, as it runs a socket's command, and relays what that
broadcasts.

A timer lives only as long as its process. A node killed or a Daphne restarted
loses its timers, and beat's sweep, every ``TABLES_SWEEP_SECONDS`` on every
node, applies what they would have (docs/deploy.md). A table has at most one
timer in a process: a wake-up for a later ``seq`` replaces it. A timer whose
table moved on in another process finds a newer ``seq`` and does nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time

from config.platform.broadcast import Messages, collected, relay
from config.platform.db_connections import retried_on_a_new_connection
from tables import command_threads, wakeups
from tables.services import table_wake
from tables.wakeups import Wake

log = logging.getLogger(__name__)


def apply_wake(wake: Wake, outbox: Messages, wakes: list[Wake]) -> None:
    """On a command thread: apply what is due at ``wake.seq`` (nothing if the table
    moved on), keeping its broadcasts in ``outbox`` and its next wake-up in ``wakes``."""

    def attempt() -> None:
        with collected(outbox), wakeups.collected(wakes):
            table_wake(table_id=wake.table_id, seq=wake.seq)

    retried_on_a_new_connection(attempt, may_retry=lambda: not outbox)


class WakeTimers:
    """One event loop's timers, a table's latest wake-up each."""

    def __init__(self) -> None:
        self.timers: dict[int, tuple[int, asyncio.TimerHandle]] = {}  # by table: seq, timer
        self.applying: set[asyncio.Task[None]] = set()  # kept: the loop holds tasks weakly

    def schedule(self, wake: Wake) -> None:
        """On the event loop: apply ``wake`` when it is due, in place of the table's
        earlier wake-up (an older ``seq``, which its table has moved on from)."""
        if wake.at is None:
            return
        loop = asyncio.get_running_loop()
        earlier = self.timers.get(wake.table_id)
        if earlier is not None:
            if earlier[0] > wake.seq:  # committed before the one already kept
                return
            earlier[1].cancel()
        delay = max(0.0, wake.at.timestamp() - time.time())
        self.timers[wake.table_id] = (wake.seq, loop.call_later(delay, self.due, wake))

    def schedule_all(self, wakes: list[Wake]) -> None:
        for wake in wakes:
            self.schedule(wake)

    def due(self, wake: Wake) -> None:
        kept = self.timers.get(wake.table_id)
        if kept is not None and kept[0] == wake.seq:
            del self.timers[wake.table_id]
        task = asyncio.ensure_future(self.apply(wake))
        self.applying.add(task)
        task.add_done_callback(self.applying.discard)

    async def apply(self, wake: Wake) -> None:
        outbox: Messages = []
        wakes: list[Wake] = []
        try:
            await command_threads.runner(apply_wake)(wake, outbox, wakes)
        except Exception:  # the database blinked: the sweep applies it within its period
            log.warning("table %s: a wake-up failed", wake.table_id, exc_info=True)
        finally:  # what committed is told, and its next wake-up kept, whatever happened after
            relay(outbox)
            self.schedule_all(wakes)


timers = WakeTimers()

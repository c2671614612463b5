"""When a table next needs attention with nobody acting, handed to whoever schedules it.

The services say what is due (``Wake``) and nothing about how it gets done.
Inside a server process the process keeps a timer for it and applies it itself
(tables/wake_timers.py); anywhere else (a Celery task, an HTTP view, a script)
the scheduler ``tables/tasks.py`` registers queues a Celery task
(``TablesConfig.ready``), so the services never import Celery and the tasks
module, which calls the services, is not imported back. Whatever either misses
(a server killed with its timers, a lost task), the beat sweep applies.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings

from config.platform.broadcast import server_loop

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Wake:
    """When the table next needs attention with nobody acting (None: never)."""

    table_id: int
    seq: int
    at: datetime | None


Scheduler = Callable[[Wake], None]
_scheduler: Scheduler | None = None
_server_timers: Scheduler | None = None  # run on a server's event loop

_collected: contextvars.ContextVar[list[Wake] | None] = contextvars.ContextVar(
    "felt_collected_wakes", default=None
)


def set_scheduler(scheduler: Scheduler) -> None:
    global _scheduler
    _scheduler = scheduler


def set_server_timers(timers: Scheduler) -> None:
    """What a server process's event loop calls to keep a wake-up on its own timer."""
    global _server_timers
    _server_timers = timers


@contextmanager
def collected(wakes: list[Wake]) -> Iterator[None]:
    """Wake-ups requested inside this are kept in ``wakes``: work run for a server's
    event loop hands them to its timers once back there (tables/wake_timers.py),
    as the broadcasts it collects are relayed."""
    token = _collected.set(wakes)
    try:
        yield
    finally:
        _collected.reset(token)


def request(wake: Wake) -> None:
    """Runs after commit: have ``wake`` seen to when it is due."""
    if wake.at is None:
        return
    if settings.TABLES_WAKE_TIMERS:
        kept = _collected.get()
        if kept is not None:
            kept.append(wake)
            return
        loop = server_loop()
        if loop is not None and _server_timers is not None:
            loop.call_soon_threadsafe(_server_timers, wake)
            return
    if _scheduler is None:  # the sweep still applies it, late
        log.error("no wake-up scheduler is registered; table %s waits for the sweep", wake.table_id)
        return
    _scheduler(wake)

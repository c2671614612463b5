"""When a table next needs attention with nobody acting, handed to whoever schedules it.

The services say what is due (``Wake``) and nothing about how it gets done:
``tables/tasks.py`` registers the scheduler that queues the Celery task
(``TablesConfig.ready``), so the services never import Celery and the tasks
module, which calls the services, is not imported back. Whatever the
scheduler misses, the beat sweep applies.
"""

from __future__ import annotations

import concurrent.futures
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from config.platform.broadcast import log_failure, server_loop

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Wake:
    """When the table next needs attention with nobody acting (None: never)."""

    table_id: int
    seq: int
    at: datetime | None


Scheduler = Callable[[Wake], None]
_scheduler: Scheduler | None = None

# Inside the server, wakes are scheduled from this one thread: in order, and
# without holding up the thread that runs every table's commands.
_server_thread = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="wake")


def set_scheduler(scheduler: Scheduler) -> None:
    global _scheduler
    _scheduler = scheduler


def request(wake: Wake) -> None:
    """Runs after commit: have ``wake`` seen to when it is due."""
    if wake.at is None:
        return
    if _scheduler is None:  # the sweep still applies it, late
        log.error("no wake-up scheduler is registered; table %s waits for the sweep", wake.table_id)
        return
    if server_loop() is not None:
        _server_thread.submit(_scheduler, wake).add_done_callback(log_failure)
    else:
        _scheduler(wake)

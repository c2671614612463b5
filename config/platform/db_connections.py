"""Database connections per server process: few, and a dead one costs no command.

Under ASGI every HTTP request runs its view in a thread of its own, and
Django keeps one connection per thread; kept open for DATABASE_CONN_MAX_AGE,
they piled up (about 300 per Daphne process under the load test). So an HTTP
request's connections are closed when it finishes: on PostgreSQL that hands
the connection back to the process's pool (``DATABASE_POOL_SIZE``, settings)
for the next request, without connecting again. The websocket commands
all run in the one database thread Channels keeps per process, which keeps
its connection between commands (reopening SQLite with its PRAGMAs cost more
than a command): one connection per process for all the live tables.

A PostgreSQL restart ends every session. The pool hands out no connection it
ended (config/adapters/postgresql/), but a connection can also die without a
word (a network that drops it silently) and fail the one command that meets
it. A table command is then run once more on a new connection
(``retried_on_a_new_connection``): before anything was committed, the failed
attempt changed nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import InterfaceError, OperationalError, connection, connections

log = logging.getLogger(__name__)
T = TypeVar("T")


def close_request_connections(**kwargs: Any) -> None:
    """``request_finished``: runs in the request's own thread, closing its connections."""
    for each in connections.all(initialized_only=True):
        if not each.in_atomic_block:  # never in the middle of someone's transaction
            each.close()


def retried_on_a_new_connection(work: Callable[[], T], *, may_retry: Callable[[], bool]) -> T:
    """``work()``; if it failed because this thread's database connection died (and
    ``may_retry()`` says nothing of it was committed), once more on a new connection.

    Only a connection that was open and no longer answers counts: any other database
    error is the work's own, and one that could not connect at all (the server is
    down) would only wait again, so both are raised as they were."""
    try:
        return work()
    except (OperationalError, InterfaceError):
        had_died = connection.connection is not None and not connection.is_usable()
        if connection.in_atomic_block or not may_retry() or not had_died:
            raise
        log.warning("the database connection died: running the command again on a new one")
        connection.close()
    return work()

"""Database connections per server process stay few.

Under ASGI every HTTP request runs its view in a thread of its own, and
Django keeps one connection per thread; kept open for DATABASE_CONN_MAX_AGE,
they piled up (about 300 per Daphne process under the load test). So an HTTP
request's connections are closed when it finishes: on PostgreSQL that hands
the connection back to the process's pool (``DATABASE_POOL_SIZE``, settings)
for the next request, without connecting again. The websocket commands
all run in the one database thread Channels keeps per process, which keeps
its connection between commands (reopening SQLite with its PRAGMAs cost more
than a command): one connection per process for all the live tables.
"""

from __future__ import annotations

from typing import Any

from django.db import connections


def close_request_connections(**kwargs: Any) -> None:
    """``request_finished``: runs in the request's own thread, closing its connections."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:  # never in the middle of someone's transaction
            connection.close()

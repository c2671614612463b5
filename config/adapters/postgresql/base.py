"""Django's PostgreSQL backend, whose pooled connections are checked without a round trip.

A PostgreSQL restart ends every session, and the process's pool (psycopg_pool,
``DATABASE_POOL_SIZE``) does not know: each connection it held would fail the
one command or page that next used it (``server_error``, HTTP 500), one after
another as the pool handed them out. Django's ``CONN_HEALTH_CHECKS`` asks the
pool to check each connection it hands out with an empty query: a round trip to
the server on every table command, since each command borrows its connection
afresh. So the check here is made only when it can find something: an idle
pooled connection has nothing to read unless the server spoke or hung up while
it waited (Felt LISTENs to nothing), and a restart's "terminating connection"
message, or the connection's end, is exactly that. A healthy connection costs a
poll of its socket; one with something to read is pinged, and if it is dead it
goes back to the pool (which drops a broken connection and opens another), the
pool checks every other idle connection at once, and the request takes a
working one. Nobody is refused and nobody waits: the pool's own ``check``
callback would have paused a second before each next try.

``get_new_connection`` is the backend's hook for opening a connection, which
with a pool means borrowing one (``self.pool``); pinned with Django
(tests/config/test_adapter_pins.py). A connection that dies without a word (a
network that drops it silently) is not seen here: a table command is then run
again on a new connection (``retried_on_a_new_connection`` in
config/platform/db_connections.py).
"""

from __future__ import annotations

import logging
import select
from typing import Any

from django.db.backends.postgresql import base

log = logging.getLogger(__name__)


def has_input(connection: Any) -> bool:
    """True when the connection's socket has something to read now."""
    poller = select.poll()
    poller.register(connection.fileno(), select.POLLIN)
    return bool(poller.poll(0))


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        connection = super().get_new_connection(conn_params)
        pool = self.pool
        if pool is None or not has_input(connection):
            return connection
        try:
            pool.check_connection(connection)
        except Exception:  # noqa: BLE001 - whatever the failure, the connection is unusable
            log.warning("a pooled database connection had died: checking the others")
            pool.putconn(connection)  # dropped as broken; the pool opens another
            pool.check()  # every other idle connection now, before anyone borrows it
            return super().get_new_connection(conn_params)
        return connection

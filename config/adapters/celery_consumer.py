"""Celery's worker consumer, made to ride out a lost Redis while it holds messages.

With Celery 5.7 and kombu 5.7's Redis transport, a worker whose broker
connection drops while it holds an unacknowledged message (a wake-up waiting
for its countdown, or a task still running: Felt acknowledges late) exits with
``Unrecoverable error: AttributeError: 'NoneType' object has no attribute
'hostname'``. On a lost connection Celery's consumer calls the connection's
``collect()`` and then its ``close()``
(``Consumer.on_connection_error_after_connected``):

1. ``collect()`` closes each channel. A Redis channel's ``close`` first reads
   the reply its pending BRPOP is owed; on the dead connection that read raises
   ``ConnectionError`` before the channel has marked itself closed or put its
   unacknowledged messages back. ``collect()`` swallows the error, then forgets
   the transport's client (``transport.client = None``).
2. ``close()`` closes the same channel again. This time the close gets as far
   as putting the messages back, which needs a new connection pool, whose
   parameters come from ``transport.client``: None. The AttributeError is not
   one of the connection errors Celery ignores there, so the worker stops.

So before Celery's clean-up, this consumer closes each channel itself, with
the same bound on socket reads Celery uses, and closes it a second time when
a connection error cut the first close short: the second runs the rest (the
pending read is gone) while the transport still knows its server. Messages
it cannot put back (the server is still down) stay in Redis' ``unacked`` set,
where the broker's visibility timeout returns them to the queue
(``CELERY_BROKER_TRANSPORT_OPTIONS``); Felt's sweeps apply what they were
for before that. Written against the pinned Celery and kombu
(tests/config/test_adapter_pins.py); the test is
tests/config/test_worker_redis_restart.py.
"""

from __future__ import annotations

from typing import Any

from celery.utils.threads import bound_open_broker_sockets
from celery.worker.consumer import consumer as celery_consumer


class Consumer(celery_consumer.Consumer):  # type: ignore[misc]
    def on_connection_error_after_connected(self, exc: Exception) -> None:
        if self.connection is not None:
            close_channels(self.connection)
        super().on_connection_error_after_connected(exc)


def close_channels(connection: Any) -> None:
    """Close every channel of the lost ``connection`` completely (see above)."""
    bound_open_broker_sockets(connection, celery_consumer.COLLECT_SOCKET_TIMEOUT)
    errors = tuple(connection.connection_errors) + tuple(connection.channel_errors)
    for channel in list(getattr(connection.transport, "channels", ())):
        for _attempt in range(2):
            try:
                channel.close()
            except errors:
                continue  # cut short by the dead connection: once more runs the rest
            break

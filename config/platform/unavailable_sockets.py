"""A websocket that a shared service fails to take in is closed with a code, never
answered with an HTTP 500.

Opening a socket reaches Redis (the channel layer subscribes the socket's
channel and joins its groups) and the database (the session, the table). While
either does not answer (a restart under way), the application raises, and
Daphne answered such a handshake with HTTP 500, which a browser sees only as a
dropped connection. ``CloseWhenUnavailable`` wraps the websocket application:
when it fails that way, the socket is accepted and closed with
``CloseCode.UNAVAILABLE``, which the pages take as any dropped connection (they
reconnect with growing pauses), and a warning is logged. Any other exception
before the socket opened is closed the same way and logged with its traceback
(while Redis restarted, redis-py has raised an ``AttributeError`` from the
channel layer's pub/sub connection); once the socket is open, it is a bug of
the consumer's, and raised as before.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from django.db import Error as DatabaseError
from redis.exceptions import RedisError

from config.platform.close_codes import CloseCode

log = logging.getLogger(__name__)

SERVICE_FAILURES = (RedisError, DatabaseError, OSError)


class CloseWhenUnavailable:
    """ASGI middleware for websockets (see the module's docstring)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await self.application(scope, receive, send)
        seen: set[str] = set()  # the message types the application received and sent

        async def watched_receive() -> Any:
            message = await receive()
            seen.add(message["type"])
            return message

        async def watched_send(message: dict[str, Any]) -> Any:
            seen.add(message["type"])
            return await send(message)

        try:
            return await self.application(scope, watched_receive, watched_send)
        except Exception as error:
            if seen & {"websocket.close", "websocket.disconnect"}:
                raise  # already over: nothing left to tell the client
            if isinstance(error, SERVICE_FAILURES):
                log.warning(
                    "closed a websocket: a service did not answer (%s: %s)",
                    type(error).__name__,
                    error,
                )
            elif "websocket.accept" in seen:
                raise  # a bug in an open socket: Daphne logs it and closes the socket
            else:  # a bug, or a library's fault while Redis blinks: logged, not a 500
                log.exception("a websocket failed to open")
            await _close_unavailable(seen, receive, send)
            return None


async def _close_unavailable(
    seen: set[str], receive: Callable[[], Awaitable[Any]], send: Any
) -> None:
    if "websocket.connect" not in seen and (await receive())["type"] != "websocket.connect":
        return
    if "websocket.accept" not in seen:  # a close before the accept is a bare HTTP 403
        await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": CloseCode.UNAVAILABLE})

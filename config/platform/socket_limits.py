"""How often one member, and one address, may open websockets.

Opening a socket costs far more than a frame: a handshake, the session read,
the consumer's first queries and snapshot. A client that reconnected after
every 4429 and flooded again tripled the other tables' round trips. So:

- handshakes are counted per address and per member, in Redis so that every
  Daphne process sees the same counts, for ``SOCKET_HANDSHAKE_WINDOW`` seconds;
  past ``SOCKET_HANDSHAKES_PER_ADDRESS`` or ``SOCKET_HANDSHAKES_PER_USER`` in
  that window a new socket is refused;
- a socket closed with 4429 (too many frames or commands) puts its address and
  its member in a cool-off of ``SOCKET_COOL_OFF_SECONDS``, during which their
  new sockets are refused.

A refused socket is accepted, then closed with ``CloseCode.TOO_MANY_SOCKETS`` (a
code the page sees; it tries again later with growing pauses), after
``REFUSAL_PAUSE_SECONDS``: a client that reconnects the moment it is closed
then waits that long for each refusal instead of costing the server hundreds
of handshakes a second (the load test's reconnecting flooder made 450 a
second), and can send nothing meanwhile (the handshake is not answered yet). ``SocketLimits``
runs twice: before authentication, by address (refusing costs no database
read), and after it, by member.

The cool-off must be in place before the client can reconnect, so it is
started before the close goes out: by the consumer's 4429 on its way out,
and by the frame budget (config/adapters/frame_guard.py, which knows only the
connection's address and port) through ``note_flood``, with the member
found in ``_members``: who each open socket of this process belongs to.

The counts live in Redis, which can fail (a restart, an outage, every pooled
connection busy for longer than ``REALTIME_POOL_WAIT_SECONDS``): then the handshake is let
through, uncounted, and a warning logged. The limits guard the server against
one client's flood; refusing every socket while Redis blinks would turn that
blink into an outage for every member, and at the worst moment: when sockets
reconnect after a restart. A socket let through still meets the frame and
command budgets, which need no Redis, and the consumer closes it with
``CloseCode.UNAVAILABLE`` if the channel layer cannot take it in. The client
is ``config/platform/redis_clients.py``'s: a bounded pool that waits for a free
connection, and a dead connection retried once on a new one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings
from redis.exceptions import RedisError

from config.platform.close_codes import CloseCode
from config.platform.redis_clients import realtime_client

log = logging.getLogger(__name__)

REFUSAL_PAUSE_SECONDS = 1.0  # well within Daphne's time limit for a handshake (5 s)
Subject = Callable[[dict[str, Any]], str | None]

_members: dict[tuple[str, int], str] = {}  # (address, port) of an open socket: its member
_cooling: set[asyncio.Task[None]] = set()  # started by note_flood, kept until done


def by_address(scope: dict[str, Any]) -> str | None:
    client = scope.get("client")
    return f"address:{client[0]}" if client else None


def by_user(scope: dict[str, Any]) -> str | None:
    user = scope.get("user")
    return f"user:{user.pk}" if user is not None and user.is_authenticated else None


def _limit(subject: str) -> int:
    if subject.startswith("user:"):
        return int(settings.SOCKET_HANDSHAKES_PER_USER)
    return int(settings.SOCKET_HANDSHAKES_PER_ADDRESS)


async def handshake_allowed(subject: str) -> bool:
    """Count one handshake of ``subject``; False when it is over its limit or cooling
    off. True, uncounted, when Redis does not answer (the module's docstring says why)."""
    count_key = f"felt:socket-handshakes:{subject}"
    try:
        async with realtime_client().pipeline(transaction=False) as pipe:
            pipe.exists(f"felt:socket-cool-off:{subject}")
            # The window starts at the first handshake; NX keeps it from moving.
            pipe.set(count_key, 0, ex=int(settings.SOCKET_HANDSHAKE_WINDOW), nx=True)
            pipe.incr(count_key)
            cooling_off, _, count = await pipe.execute()
    except (RedisError, OSError) as error:
        log.warning(
            "socket limits: let a websocket of %s through uncounted (%s: %s)",
            subject,
            type(error).__name__,
            error,
        )
        return True
    return not cooling_off and count <= _limit(subject)


async def cool_off(subject: str) -> None:
    seconds = int(settings.SOCKET_COOL_OFF_SECONDS)
    if seconds <= 0:
        return
    try:
        await realtime_client().set(f"felt:socket-cool-off:{subject}", 1, ex=seconds)
    except (RedisError, OSError) as error:  # the socket is closed all the same
        log.warning(
            "socket limits: no cool-off for %s (%s: %s)", subject, type(error).__name__, error
        )


def note_flood(client: list[Any] | None) -> None:
    """Called as the frame budget closes the socket of ``client`` (address, port):
    the cool-off of its address and member starts now."""
    if not client:
        return
    subjects = [f"address:{client[0]}"]
    member = _members.get((str(client[0]), int(client[1])))
    if member is not None:
        subjects.append(member)
    task = asyncio.get_running_loop().create_task(_cool_off_all(subjects))
    _cooling.add(task)
    task.add_done_callback(_cooling.discard)


async def _cool_off_all(subjects: list[str]) -> None:
    for subject in subjects:
        await cool_off(subject)


class SocketLimits:
    """ASGI middleware for websockets: refuses ``subject``'s sockets over the limits,
    and starts its cool-off when one of its sockets ends with 4429."""

    def __init__(self, application: Any, subject: Subject) -> None:
        self.application = application
        self.subject = subject

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        subject = self.subject(scope) if scope["type"] == "websocket" else None
        if subject is None:
            return await self.application(scope, receive, send)
        if not await handshake_allowed(subject):
            log.info("refused a websocket of %s: too many, or cooling off", subject)
            return await refuse(receive, send)
        client = scope.get("client")
        connection = (
            (str(client[0]), int(client[1])) if client and subject.startswith("user:") else None
        )
        if connection is not None:
            _members[connection] = subject
        try:
            return await self.application(
                scope, _watch_receive(receive, subject), _watch_send(send, subject)
            )
        finally:
            if connection is not None:
                _members.pop(connection, None)


def _is_rate_limited(message: dict[str, Any], kind: str) -> bool:
    return bool(message["type"] == kind and message.get("code") == CloseCode.RATE_LIMITED)


def _watch_send(send: Callable[..., Awaitable[Any]], subject: str) -> Any:
    """``send``, starting ``subject``'s cool-off when the consumer closes with 4429."""

    async def watched(message: dict[str, Any]) -> Any:
        if _is_rate_limited(message, "websocket.close"):
            await cool_off(subject)
        return await send(message)

    return watched


def _watch_receive(receive: Callable[..., Awaitable[Any]], subject: str) -> Any:
    """``receive``, starting ``subject``'s cool-off when the socket ended with 4429 (the
    frame budget's close, reported by config/adapters/frame_guard.py)."""

    async def watched() -> Any:
        message = await receive()
        if _is_rate_limited(message, "websocket.disconnect"):
            await cool_off(subject)
        return message

    return watched


async def refuse(receive: Any, send: Any) -> None:
    """Accept, then close with the code: a socket closed before it is accepted
    reaches the browser as a bare HTTP 403, with no code to say why."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await asyncio.sleep(REFUSAL_PAUSE_SECONDS)
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": CloseCode.TOO_MANY_SOCKETS})

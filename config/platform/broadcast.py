"""Group messages sent from sync code: the services' commits, Celery tasks, scripts.

A command from a websocket runs in the worker thread that all database work of
a Daphne process shares; waiting there for the channel layer's round trips
would hold up every other table's commands. So a consumer names its event loop
(``serve_from_running_loop``) before it calls into sync code, and a send from
that code is handed to the loop while the thread moves on. The loop travels in
a context variable, which asgiref's ``sync_to_async`` carries into the thread.
A table command does better still: its sends are kept (``collected``) and
returned with it, and the consumer sends them (``relay``) once back on the
loop, which the thread's return wakes anyway; handing each to the loop from
the thread cost a wake-up of its own, a write to the loop's pipe that then
waited for the interpreter lock (docs/performance.md).
Elsewhere (Celery, scripts, HTTP views) messages go through one background
event loop per process and the caller waits, at most ``SEND_TIMEOUT``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import functools
import logging
import os
import threading
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from channels.layers import get_channel_layer

log = logging.getLogger(__name__)
T = TypeVar("T")

Messages = list[tuple[str, dict[str, Any]]]  # (group, message) pairs
SEND_TIMEOUT = 10.0  # seconds a broadcast from sync code may take

_server_loop: contextvars.ContextVar[asyncio.AbstractEventLoop | None] = contextvars.ContextVar(
    "felt_server_loop", default=None
)


_collected: contextvars.ContextVar[Messages | None] = contextvars.ContextVar(
    "felt_collected_messages", default=None
)


@contextmanager
def collected(outbox: Messages) -> Iterator[None]:
    """Sync code run inside this keeps its sends in ``outbox`` (for ``relay``)."""
    token = _collected.set(outbox)
    try:
        yield
    finally:
        _collected.reset(token)


def relay(messages: Messages) -> asyncio.Future[None] | None:
    """On the consumer's event loop: send what ``collected`` kept, without waiting.
    The sending, for a caller that wants to know whether it failed (None: nothing to send)."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return None
    sending = asyncio.ensure_future(send_all(layer, messages))
    sending.add_done_callback(functools.partial(resend_if_failed, layer, messages, None))
    return sending


def serve_from_running_loop() -> None:
    """Called by a consumer: sync code it calls hands its sends to this event loop."""
    _server_loop.set(asyncio.get_running_loop())


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The consumer's event loop when this sync code was called from one still running."""
    loop = _server_loop.get()
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    return loop


def send(messages: Messages) -> None:
    """Broadcast; when called for a consumer, without waiting for it.

    Consumers drop any snapshot older than one they have already shown, so a
    send that lands after a later one changes nothing.
    """
    outbox = _collected.get()
    if outbox is not None:
        outbox.extend(messages)
        return
    layer = get_channel_layer()
    if layer is None:
        return
    loop = server_loop()
    if loop is not None:
        future = asyncio.run_coroutine_threadsafe(send_all(layer, messages), loop)
        future.add_done_callback(functools.partial(resend_if_failed, layer, messages, loop))
        return
    try:
        _background.run(send_all(layer, messages), timeout=SEND_TIMEOUT)
    except Exception as error:
        log.warning("a broadcast failed (%r); it is sent again as Redis comes back", error)
        _background.submit(resend(layer, messages))


async def send_all(layer: Any, messages: Messages) -> None:
    send_many = getattr(layer, "group_send_many", None)
    # One round trip for the whole change (config/adapters/channel_layer.py).
    if send_many is not None:
        await send_many(messages)
        return
    for group, message in messages:
        await layer.group_send(group, message)


# A failed broadcast is sent again after each of these pauses until one succeeds:
# a Redis restart fails the broadcasts of its outage and of the moments after it,
# and a snapshot lost then would leave every other viewer of that table waiting for
# its next change (the clock's 20 s, if the one who should act never saw it). Sent
# late, a snapshot changes nothing where a later one was shown (``send``).
# A send that succeeds only reached the processes whose subscriptions were back by
# then (Redis keeps nothing for the others), so a message that carries a ``seq`` (a
# snapshot: its sockets drop one they have shown) is sent at every pause; any other
# (a chat line, which would be shown twice) until one send succeeds.
RESEND_PAUSES = (0.5, 1.0, 2.0, 4.0, 8.0)


async def resend(layer: Any, messages: Messages) -> None:
    unsent = messages
    for pause in RESEND_PAUSES:
        await asyncio.sleep(pause)
        try:
            await send_all(layer, unsent)
        except Exception as error:
            failure: Exception | None = error
        else:
            failure = None
            unsent = [(group, message) for group, message in unsent if "seq" in message]
            if not unsent:
                return
    if failure is not None:
        log.error("a broadcast was never sent", exc_info=failure)


_resending: set[asyncio.Future[None]] = set()  # kept until done: the loop holds tasks weakly


def resend_if_failed(
    layer: Any,
    messages: Messages,
    loop: asyncio.AbstractEventLoop | None,
    sent: concurrent.futures.Future[Any] | asyncio.Future[Any],
) -> None:
    """A send's done callback, run on its event loop: send again if it failed."""
    if sent.cancelled() or sent.exception() is None:
        return
    log.warning("a broadcast failed (%r); it is sent again as Redis comes back", sent.exception())
    task = (loop or asyncio.get_running_loop()).create_task(resend(layer, messages))
    _resending.add(task)
    task.add_done_callback(_resending.discard)


class BackgroundLoop:
    """One event loop per process, in a thread of its own, for broadcasts from sync code.

    ``async_to_sync`` would run each broadcast in a new event loop, and the
    channel layer keeps its Redis connections per loop: a Celery worker would
    open (and close) a connection for every snapshot it sends.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid = 0

    def run(self, coroutine: Coroutine[Any, Any, T], timeout: float) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self._running()).result(timeout)

    def submit(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Run ``coroutine`` on the loop without waiting for it."""
        asyncio.run_coroutine_threadsafe(coroutine, self._running())

    def _running(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            # A forked child (a Celery pool process) inherits the loop but not its thread.
            if self._loop is None or self._pid != os.getpid():
                self._loop = asyncio.new_event_loop()
                self._pid = os.getpid()
                threading.Thread(
                    target=self._loop.run_forever, name="broadcast", daemon=True
                ).start()
            return self._loop


_background = BackgroundLoop()


def log_failure(future: concurrent.futures.Future[Any] | asyncio.Future[Any]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("a broadcast or wake-up failed", exc_info=future.exception())

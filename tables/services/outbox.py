"""What leaves a committed change: per-viewer snapshots to the groups, and the wake task.

Messages are built from the objects a service just saved (so they match the
saved ``seq``) and sent by ``deliver``, both from ``transaction.on_commit``.
The public group gets the spectator's view and the list of users who also get
a private one; each seated human's private group gets that user's own view.
No group message ever holds a card its readers may not see.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import secrets
import threading
from collections.abc import Coroutine, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from asgiref.sync import SyncToAsync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.utils import timezone

import engine
from tables.models import Seat, Table
from tables.selectors import build_snapshots, snapshot_frame

log = logging.getLogger(__name__)
T = TypeVar("T")

SEND_TIMEOUT = 10.0  # seconds a broadcast from sync code may take
# A queued wake task this close to running is not relied on to queue the next.
WAKE_SKIP_MARGIN = 1.0  # seconds


def public_group(table_id: int) -> str:
    return f"table-{table_id}"


def private_group(table_id: int, user_id: int) -> str:
    return f"table-{table_id}-user-{user_id}"


@dataclass(frozen=True)
class Wake:
    """When the table next needs attention with nobody acting (None: never)."""

    table_id: int
    seq: int
    at: datetime | None


def snapshot_messages(
    table: Table,
    seats: Mapping[int, Seat],
    state: engine.HandState | None,
    now: datetime,
    gone_user_ids: Iterable[int] = (),
) -> list[tuple[str, dict[str, Any]]]:
    """(group, message) pairs: the spectator view, then one private view per seated human.

    Seated players' sockets leave the public group, so the users who lost
    their seat in this change (``gone_user_ids``) get the spectator view in
    their private group: it tells their sockets to follow the public one again.
    """
    humans = [seat for seat in seats.values() if seat.user_id is not None]
    spectator_view, *private_views = build_snapshots(table, seats, state, [None, *humans], now)
    # Each view is encoded once here; every socket it reaches sends the same text.
    spectator_frame = snapshot_frame(spectator_view)
    public = {
        "type": "table.snapshot",
        "seq": table.seq,
        "is_seated": False,
        "frame": spectator_frame,
        "private_user_ids": [seat.user_id for seat in humans],
    }
    messages = [(public_group(table.pk), public)]
    seated = {seat.user_id for seat in humans}
    for user_id in sorted(set(gone_user_ids) - seated):
        gone = {"type": "table.private", "seq": table.seq, "is_seated": False}
        messages.append((private_group(table.pk, user_id), {**gone, "frame": spectator_frame}))
    for seat, private_view in zip(humans, private_views, strict=True):
        assert seat.user_id is not None
        private = {
            "type": "table.private",
            "seq": table.seq,
            "is_seated": private_view["your_seat"] is not None,
            "frame": snapshot_frame(private_view),
        }
        messages.append((private_group(table.pk, seat.user_id), private))
    return messages


# Inside the server, wake tasks are queued from this one thread: in order, and
# without holding up the thread that runs every table's commands (see ``send``).
_scheduler = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="wake")


def deliver(messages: list[tuple[str, dict[str, Any]]], wake: Wake) -> None:
    """Runs after commit: schedule first (it matters more), then broadcast."""
    if wake.at is not None and _server_loop() is not None:
        _scheduler.submit(schedule, wake).add_done_callback(_log_failure)
    else:
        schedule(wake)
    send(messages)


def schedule(wake: Wake) -> None:
    """Queue the wake task for ``wake.at``, unless one already queued will see to it.

    A human's deadline moves 20 s on with every action, and queueing a task
    each time cost more than the action itself. So the table's last queued
    task is noted in the cache (its token and time): while it is still ahead
    and not later than ``wake.at``, nothing more is queued, and that task,
    finding the table moved on, queues the next one itself (``rearm``). An
    earlier time (a bot's move, the next hand) is always queued; a lost task
    or note is covered by the sweep.
    """
    if wake.at is None:
        return
    now = timezone.now()
    try:
        pending = cache.get(_wake_key(wake.table_id))
    except Exception:  # no cache: queue every time, as if nothing were pending
        pending = None
    earliest_skip = now.timestamp() + WAKE_SKIP_MARGIN
    if pending is not None and earliest_skip < pending[1] <= wake.at.timestamp():
        return
    _queue(wake, now)


def rearm(table_id: int, seq: int, token: str, at: datetime | None) -> None:
    """A wake task found its table moved on: queue the next one if it was the table's last."""
    try:
        pending = cache.get(_wake_key(table_id))
    except Exception:
        pending = None
    if at is not None and pending is not None and pending[0] == token:
        _queue(Wake(table_id, seq, at), timezone.now())


def _queue(wake: Wake, now: datetime) -> None:
    from tables.tasks import wake as wake_task  # the tasks module imports the services

    assert wake.at is not None
    countdown = max(0.0, (wake.at - now).total_seconds())
    token = secrets.token_hex(8)
    try:
        cache.set(_wake_key(wake.table_id), (token, wake.at.timestamp()), countdown + 60)
    except Exception:
        log.warning("could not note the wake task of table %s", wake.table_id)
    try:
        wake_task.apply_async((wake.table_id, wake.seq, token), countdown=countdown)
    except Exception:  # the sweep applies it anyway: a lost task loses nothing
        log.exception("could not queue the wake task of table %s", wake.table_id)


def _wake_key(table_id: int) -> str:
    return f"tables:wake:{table_id}"


def send(messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Broadcast; inside the server, without waiting for it.

    A command from a websocket runs in the worker thread that all database
    work of the server shares; waiting there for the channel layer's round
    trips would hold up every other table's commands. So when this thread
    belongs to a running event loop, the sends are handed to that loop and
    the thread moves on. Elsewhere (Celery, scripts) they are sent at once.
    Consumers drop any snapshot older than one they have already shown.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop()
    if loop is not None:
        future = asyncio.run_coroutine_threadsafe(_send_all(layer, messages), loop)
        future.add_done_callback(_log_failure)
        return
    try:
        _background.run(_send_all(layer, messages), timeout=SEND_TIMEOUT)
    except Exception:  # clients re-sync from the next snapshot or on reconnect
        log.exception("could not broadcast a table snapshot")


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


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop that called this thread through sync_to_async, if still running."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop: asyncio.AbstractEventLoop | None = getattr(
        SyncToAsync.threadlocal, "main_event_loop", None
    )
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    return loop


def _log_failure(future: concurrent.futures.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        error = future.exception()
        log.error("a table's broadcast or wake-up failed", exc_info=error)


async def _send_all(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    send_many = getattr(layer, "group_send_many", None)
    if send_many is not None:  # one round trip for the whole change (config/channel_layer.py)
        await send_many(messages)
        return
    results = await asyncio.gather(
        *(layer.group_send(group, message) for group, message in messages),
        return_exceptions=True,
    )
    for result in results:
        if isinstance(result, BaseException):
            raise result

"""Celery tasks through the real broker and a real worker thread (never eager)."""

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from channels.layers import get_channel_layer
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db import connections
from django.utils import timezone

from accounts import presence
from accounts.consumers import LOBBY_GROUP
from accounts.tasks import clear_expired_sessions, refresh_online_count
from config.celery import app as celery_app


def close_worker_connections(**kwargs) -> None:
    # The worker thread's own connections would keep PostgreSQL from
    # dropping the test database at the end of the run.
    connections.close_all()


@pytest.fixture
def worker(transactional_db):
    """A worker thread consuming from the configured broker (Redis)."""
    import celery.contrib.testing.tasks  # noqa: F401 - the ping task start_worker checks

    assert not celery_app.conf.task_always_eager
    task_postrun.connect(close_worker_connections, weak=False)
    try:
        with start_worker(celery_app, pool="solo", perform_ping_check=True, shutdown_timeout=10):
            yield
    finally:
        task_postrun.disconnect(close_worker_connections)


def make_session(*, expires_in: timedelta) -> str:
    store = SessionStore()
    store.create()
    Session.objects.filter(session_key=store.session_key).update(
        expire_date=timezone.now() + expires_in
    )
    return store.session_key


def test_the_worker_deletes_only_expired_sessions(worker):
    expired = make_session(expires_in=timedelta(days=-1))
    live = make_session(expires_in=timedelta(days=1))

    deleted = clear_expired_sessions.delay().get(timeout=10)

    assert deleted == 1
    assert list(Session.objects.values_list("session_key", flat=True)) == [live]
    assert not Session.objects.filter(session_key=expired).exists()


def test_the_worker_announces_the_online_count_to_the_lobby(worker):
    layer = get_channel_layer()

    async def listen_while_the_worker_counts() -> tuple[int, dict]:
        # Listening and receiving share one event loop: the pub/sub layer's
        # subscription lives as long as the loop that made it.
        channel = await layer.new_channel()
        await layer.group_add(LOBBY_GROUP, channel)
        await presence.connection_opened(1, "tab-a")
        await presence.connection_opened(2, "tab-b")
        await presence.connection_opened(2, "tab-c")
        count = await sync_to_async(lambda: refresh_online_count.delay().get(timeout=10))()
        message = await asyncio.wait_for(layer.receive(channel), timeout=5)
        return count, message

    count, message = async_to_sync(listen_while_the_worker_counts)()

    assert count == 2
    assert message == {"type": "online.count", "count": 2}

"""Celery tasks through the real broker and a real worker thread (never eager)."""

import asyncio
from datetime import timedelta

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from accounts import presence
from accounts.consumers import LOBBY_GROUP
from accounts.tasks import clear_expired_sessions, refresh_online_count


def make_session(*, expires_in: timedelta) -> str:
    store = SessionStore()
    store.create()
    Session.objects.filter(session_key=store.session_key).update(
        expire_date=timezone.now() + expires_in
    )
    return store.session_key


def test_the_worker_deletes_only_expired_sessions(celery_worker):
    expired = make_session(expires_in=timedelta(days=-1))
    live = make_session(expires_in=timedelta(days=1))

    deleted = clear_expired_sessions.delay().get(timeout=10)

    assert deleted == 1
    assert list(Session.objects.values_list("session_key", flat=True)) == [live]
    assert not Session.objects.filter(session_key=expired).exists()


def test_the_worker_announces_the_online_count_to_the_lobby(celery_worker):
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

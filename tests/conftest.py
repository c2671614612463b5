"""Fixtures shared by the Django-side tests (the engine tests use none of them)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis

from tests.support import PASSWORD
from tests.support.chromium import (  # noqa: F401 - fixtures for every test
    browser,
    shared_chromium,
    static_url,
)
from tests.support.live import (  # noqa: F401 - fixtures for every test
    live_server_options,
    live_servers,
    server_url,
)


@pytest.fixture
def clean_redis(settings: Any) -> Iterator[None]:
    """Empties the cache and the online list so tests do not see each other."""
    from django.core.cache import cache

    from accounts.presence import ONLINE_KEY

    def wipe() -> None:
        cache.clear()
        with redis.Redis.from_url(settings.REDIS_REALTIME_URL) as client:
            client.delete(ONLINE_KEY)

    wipe()
    yield
    wipe()


@pytest.fixture(autouse=True)
def fresh_socket_limits() -> None:
    """Websocket handshake counts and cool-offs (config/platform/socket_limits.py) outlive a
    test in Redis, and the next test's users may have the same ids: none carry over."""
    from django.conf import settings

    with redis.Redis.from_url(settings.REDIS_REALTIME_URL) as client:
        stale = list(client.scan_iter("felt:socket-*"))
        if stale:
            client.delete(*stale)


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    from accounts.models import User

    def make(username: str = "alice", **fields: Any) -> User:
        fields.setdefault("email", f"{username}@example.com")
        return User.objects.create_user(username=username, password=PASSWORD, **fields)

    return make


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> Iterator[None]:
    """Channels keeps one layer object per process, and channels-redis binds its
    receive lock to the event loop that first used it; every async test runs in a
    new loop, so each test gets a layer of its own."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def closed_command_threads() -> Iterator[None]:
    """Table commands on PostgreSQL run on a pool of threads with connections of their
    own (``TABLES_COMMAND_THREADS``): closed after each test, or the test database
    could not be flushed and dropped with them open."""
    yield
    command_threads = sys.modules.get("tables.command_threads")  # not imported: no pool
    if command_threads is not None:
        command_threads.close_pool()


@pytest.fixture
async def close_database_connections() -> Any:
    """For socket tests: close the connections opened in asgiref's worker thread.

    The consumers reach the database from that thread; its PostgreSQL
    connection would otherwise outlive the test database.
    """
    from asgiref.sync import sync_to_async
    from django.db import connections

    yield
    await sync_to_async(connections.close_all)()

"""How every Redis client Felt holds connects, and the one the socket guards share.

A Redis restart leaves every pooled connection of every client dead, and a
client finds that out only when it next uses one. redis-py's clients made
from a URL retry nothing, so each dead connection failed one command: a
websocket handshake answered HTTP 500, a table command ``server_error``, for
minutes after Redis was back, until every pooled connection had failed once.
So every client (the cache and the channel layer, in ``config/settings.py``;
the handshake limits and the online list, through ``realtime_client``) gets
the same options:

- a command that meets a dead connection (``ConnectionError``) is sent once
  more at once, on a new connection (``Retry``: a dead pooled connection costs
  a reconnect, not an error). A timeout is not retried: it would only double
  the wait on a Redis that is slow;
- a connection idle for ``HEALTH_CHECK_SECONDS`` is pinged before it is used
  again (redis-py's ``health_check_interval``): a connection in steady use is
  never pinged, so the live path pays no round trip for it; TCP keepalive
  finds a peer that vanished without a word;
- connecting gives up after ``CONNECT_SECONDS``, and a command after
  ``COMMAND_SECONDS`` (the channel layer keeps its own, longer, timeout).

The pools are bounded and wait for a free connection (``BlockingConnectionPool``)
instead of refusing one past a limit: redis-py's default pool raised
``MaxConnectionsError`` at its 101st connection, and 300 sockets opened at
once answered 162 handshakes with HTTP 500 through the handshake limiter.
"""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio as aioredis
from django.conf import settings
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.retry import Retry

HEALTH_CHECK_SECONDS = 30
CONNECT_SECONDS = 2.0
COMMAND_SECONDS = 5.0
# The shared async client's pool (per event loop): at most this many connections;
# a command waits this long for one, then fails (the caller says what that means).
REALTIME_POOL_SIZE = 50
REALTIME_POOL_WAIT_SECONDS = 1.0
# The cache's pool (per process): the threads that use it are few (the database
# thread, the command threads, the wake-up and summary threads, views).
CACHE_POOL_SIZE = 50
CACHE_POOL_WAIT_SECONDS = 2.0


def connection_options(url: str) -> dict[str, Any]:
    """redis-py's connection options for a synchronous client of ``url``."""
    options: dict[str, Any] = {
        "retry": Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)),
        "health_check_interval": HEALTH_CHECK_SECONDS,
        "socket_connect_timeout": CONNECT_SECONDS,
    }
    if not url.startswith("unix:"):  # TCP only: a unix socket has no keepalive
        options["socket_keepalive"] = True
    return options


def async_connection_options(url: str) -> dict[str, Any]:
    """The same for an asyncio client (its ``Retry`` is a class of its own)."""
    return {
        **connection_options(url),
        "retry": AsyncRetry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)),
    }


def cache_options(url: str) -> dict[str, Any]:
    """``OPTIONS`` of Django's Redis cache at ``url``: its pool, and the connections'."""
    return {
        "pool_class": "redis.BlockingConnectionPool",
        "max_connections": CACHE_POOL_SIZE,
        "timeout": CACHE_POOL_WAIT_SECONDS,  # the pool's wait for a free connection
        "socket_timeout": COMMAND_SECONDS,
        **connection_options(url),
    }


_realtime: dict[asyncio.AbstractEventLoop, aioredis.Redis] = {}


def realtime_client() -> aioredis.Redis:
    """The client of the handshake limits and the online list (``REDIS_REALTIME_URL``):
    one per event loop, as a client belongs to the loop that made it."""
    loop = asyncio.get_running_loop()
    client = _realtime.get(loop)
    if client is None:
        for old in [old for old in _realtime if old.is_closed()]:
            del _realtime[old]
        pool = aioredis.BlockingConnectionPool.from_url(
            settings.REDIS_REALTIME_URL,
            max_connections=REALTIME_POOL_SIZE,
            timeout=REALTIME_POOL_WAIT_SECONDS,
            socket_timeout=COMMAND_SECONDS,
            **async_connection_options(settings.REDIS_REALTIME_URL),
        )
        client = _realtime[loop] = aioredis.Redis(connection_pool=pool)
    return client

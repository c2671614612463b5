"""Django's Redis cache, with one client and one pool per process, not per socket.

Django keeps a cache backend per asynchronous context, not per thread (its
cache handler is not "thread critical"), and every backend builds its own
client and connection pool. Under Daphne each websocket runs in a context of
its own, so every open socket had a pool of its own and opened a Redis
connection of its own at its first command (the log-in check): a connect and a
handshake per socket, and one idle connection per socket afterwards (301
cache connections for 300 sockets; docs/performance.md, session 32). The
backends now share one ``RedisCacheClient`` per process for each cache
configuration (its servers and options), and so its pool: the connections
follow the threads that use them at once, not the sockets.

Django's client also builds a new ``redis.Redis`` around its pool for every call,
about 60 microseconds on the development machine, a third of a whole ``get``
from Redis on the same host; the live path reads the cache at every command
(the log-in check). A ``redis.Redis`` is safe to share between threads (each
command takes a connection from the pool), so one per pool is kept.
``get_client`` is Django's place for a custom client; the pool comes from its
underscored ``_get_connection_pool``, and the client from the backend's
``_cache``, both pinned with Django (tests/config/test_adapter_pins.py).
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends import redis as django_redis
from django.utils.functional import cached_property


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}  # by id() of the pool they use

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Underscored in Django and absent from its stubs (pinned, see above).
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


# The process's clients, by the servers and options they were made for. A redis-py
# pool notices a fork and starts afresh in the child, so a client outlives one.
_shared: dict[tuple[tuple[str, ...], str], RedisCacheClient] = {}
_shared_lock = threading.Lock()


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient

    @cached_property
    def _cache(self) -> RedisCacheClient:
        # Django's underscored attributes, absent from its stubs (pinned, see above).
        servers, options = self._servers, self._options  # type: ignore[attr-defined]
        key = (tuple(servers), repr(sorted(options.items())))
        with _shared_lock:
            client = _shared.get(key)
            if client is None:
                client = _shared[key] = self._class(servers, **options)
        return client

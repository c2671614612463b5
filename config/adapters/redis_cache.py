"""Django's Redis cache, keeping one client per connection pool.

Django's client builds a new ``redis.Redis`` around its pool for every call,
about 60 microseconds on the development machine, a third of a whole ``get``
from Redis on the same host; the live path reads the cache at least twice per
action (the log-in check, the wake task's note). A ``redis.Redis`` is safe to
share between threads (each command takes a connection from the pool), so one
per pool is kept. ``get_client`` is Django's place for a custom client; the
pool comes from its underscored ``_get_connection_pool``, pinned with Django
(tests/config/test_adapter_pins.py).
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis as django_redis


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


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient

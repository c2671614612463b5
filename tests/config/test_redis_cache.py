"""The Redis cache keeps one client and pool per process, however many sockets
(asynchronous contexts) use it, and still works as Django's does: from many
threads at once, after a fork."""

from __future__ import annotations

import contextvars
import os
import threading

from django.core.cache import cache, caches

from config.adapters.redis_cache import RedisCache


def test_the_cache_is_ours_and_reuses_its_client() -> None:
    default = caches["default"]
    assert isinstance(default, RedisCache)
    client = default._cache.get_client("a", write=True)
    assert default._cache.get_client("b", write=True) is client
    assert default._cache.get_client("a") is client  # one server: reads use its pool too


def _cache_connections() -> int:
    """The connections Redis has open on the cache's database, from any process."""
    client = caches["default"]._cache.get_client()
    database = client.connection_pool.connection_kwargs.get("db", 0)
    return sum(1 for each in client.client_list() if int(each["db"]) == database)


def test_sockets_share_the_process_s_connections_to_the_cache() -> None:
    # Each websocket runs in an asynchronous context of its own, for as long as it is
    # open, and Django makes a cache backend for each: 30 contexts kept stand for 30
    # open sockets that have each sent a command.
    cache.get("felt-test-context")  # this process's connection is open
    before = _cache_connections()
    sockets = [contextvars.Context() for _ in range(30)]
    for context in sockets:
        context.run(lambda: cache.get("felt-test-context"))
    backends = {id(context.run(lambda: caches["default"])) for context in sockets}
    assert len(backends) == 30  # Django's, one per context...
    assert _cache_connections() == before  # ...but no connection of their own


def test_threads_sharing_the_client_each_read_their_own_values() -> None:
    errors: list[str] = []

    def work(n: int) -> None:
        for i in range(50):
            cache.set(f"felt-test-thread-{n}", (n, i), 30)
            if cache.get(f"felt-test-thread-{n}") != (n, i):
                errors.append(f"thread {n} read another value at {i}")

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    cache.delete_many([f"felt-test-thread-{n}" for n in range(8)])


def test_a_forked_child_reads_the_cache_through_its_own_connections() -> None:
    cache.set("felt-test-fork", "before", 30)  # the parent's pool has a connection now
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        try:
            os.write(write, str(cache.get("felt-test-fork")).encode())
        finally:
            os._exit(0)
    os.close(write)
    _, status = os.waitpid(child, 0)
    assert os.read(read, 100) == b"before" and status == 0
    os.close(read)
    assert cache.get("felt-test-fork") == "before"
    cache.delete("felt-test-fork")

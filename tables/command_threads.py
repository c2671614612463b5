"""Where a server process runs table work off its event loop: the thread all of its
database work shares, or, where ``TABLES_COMMAND_THREADS`` is more than one
(PostgreSQL), a pool of that many threads, each with its own connection.

There a command's time is mostly waiting for the database's answers, which the
other tables' commands can use; on SQLite every write queues for the one writer
and more threads only fought over the interpreter (docs/performance.md). The
sockets' commands (tables/consumers.py) and the process's own wake-up timers
(tables/wake_timers.py) both run here.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import DatabaseSyncToAsync, database_sync_to_async
from django.conf import settings
from django.db import connections

Runner = Callable[..., Awaitable[Any]]

_pool: concurrent.futures.ThreadPoolExecutor | None = None
_pool_threads = 0  # the pool's size
_on_pool: dict[Callable[..., Any], Runner] = {}  # each function's runner on the pool
_on_database_thread: dict[Callable[..., Any], Runner] = {}
_lock = threading.Lock()


def runner(function: Callable[..., Any]) -> Runner:
    """``function`` as a coroutine function that runs it on the command threads."""
    threads = settings.TABLES_COMMAND_THREADS
    with _lock:  # each made once, not for every call
        if threads <= 1:
            if function not in _on_database_thread:
                _on_database_thread[function] = database_sync_to_async(function)
            return _on_database_thread[function]
        global _pool, _pool_threads
        if _pool is None:
            _pool = concurrent.futures.ThreadPoolExecutor(threads, "commands")
            _pool_threads = threads
        if function not in _on_pool:
            _on_pool[function] = DatabaseSyncToAsync(
                function, thread_sensitive=False, executor=_pool
            )
        return _on_pool[function]


def close_pool() -> None:
    """Stop the pool's threads, each closing its database connections first (a test
    database cannot be dropped while they are open)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
        _on_pool.clear()
        workers = _pool_threads
    if pool is None:
        return
    # One job per thread: each waits for the others, so no thread takes two.
    everyone_there = threading.Barrier(workers)

    def close_own() -> None:
        try:
            everyone_there.wait(timeout=10)
        finally:
            connections.close_all()

    for _ in range(workers):
        pool.submit(close_own)
    pool.shutdown(wait=True)

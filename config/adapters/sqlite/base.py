"""SQLite whose writers wait their turn in the kernel instead of polling.

Every transaction Felt opens on SQLite is ``BEGIN IMMEDIATE``: it takes the
database's write lock at once. When another process holds that lock, SQLite's
busy handler sleeps and retries, with sleeps growing to 100 ms; under load a
waiter can keep losing the race to fresh arrivals. Two processes writing
2 ms transactions side by side saw a p99 of 27-38 ms and waits of up to
1.4 s that way, against 6 ms for one process alone.

So each transaction first takes an exclusive ``flock`` on a file next to the
database: the kernel wakes a waiting writer as soon as the lock is free, and
SQLite's own lock is then always free when ``BEGIN IMMEDIATE`` asks for it.
The flock is held until the transaction commits or rolls back, and a process
that dies releases it with its file descriptors. Writes outside a
transaction (autocommit) still use SQLite's lock alone.
"""

from __future__ import annotations

import fcntl
import os
from typing import Any

from django.db.backends.sqlite3 import base


# The writer lock wraps the backend's transaction hooks, which are Django's own
# (underscored) methods and absent from the stubs: tests/config/test_sqlite_writer_lock.py
# pins their behaviour, so a Django upgrade that changes them fails there.
class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._writer_lock: int | None = None  # the lock file's descriptor, while held

    def _start_transaction_under_autocommit(self) -> None:
        self._take_writer_lock()
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]
        except BaseException:
            self._release_writer_lock()
            raise

    def _commit(self) -> None:
        try:
            super()._commit()  # type: ignore[misc]
        finally:
            self._release_writer_lock()

    def _rollback(self) -> None:
        try:
            super()._rollback()  # type: ignore[misc]
        finally:
            self._release_writer_lock()

    def _close(self) -> None:
        try:
            super()._close()  # type: ignore[misc]
        finally:
            self._release_writer_lock()

    def _take_writer_lock(self) -> None:
        if self._writer_lock is not None or self.is_in_memory_db():
            return
        path = f"{self.settings_dict['NAME']}.writer-lock"
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)  # releases the GIL while it waits
        except BaseException:
            os.close(descriptor)
            raise
        self._writer_lock = descriptor

    def _release_writer_lock(self) -> None:
        descriptor, self._writer_lock = self._writer_lock, None
        if descriptor is not None:
            os.close(descriptor)  # closing the descriptor drops its flock

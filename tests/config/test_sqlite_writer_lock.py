"""The embedded SQLite's writers queue on a file lock (config/adapters/sqlite/base.py)."""

from __future__ import annotations

import fcntl
import os
import threading
import time

import pytest
from django.db import connection, connections, transaction

from accounts.models import User

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="the embedded database only"),
]


def lock_is_free() -> bool:
    """True when nobody holds the writer lock (tried without waiting, then let go)."""
    path = f"{connection.settings_dict['NAME']}.writer-lock"
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(descriptor)  # also drops the lock if it was taken
    return True


def in_thread(work):
    """Run ``work`` in a thread with its own database connection; returns the thread."""

    def run():
        try:
            work()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_a_transaction_holds_the_writer_lock_until_it_commits():
    with transaction.atomic():
        User.objects.create_user(username="inside")
        holder_sees = lock_is_free()
    assert holder_sees is False
    assert lock_is_free()
    assert User.objects.filter(username="inside").exists()


def test_a_rolled_back_transaction_lets_go_of_the_lock():
    with pytest.raises(RuntimeError), transaction.atomic():
        User.objects.create_user(username="undone")
        raise RuntimeError("changed my mind")
    assert lock_is_free()
    assert not User.objects.filter(username="undone").exists()


def test_closing_the_connection_mid_transaction_lets_go_of_the_lock():
    with transaction.atomic():
        User.objects.create_user(username="abandoned")
        held = not lock_is_free()
        connection.close()
        freed = lock_is_free()
    assert held and freed
    assert not User.objects.filter(username="abandoned").exists()


def test_a_second_writer_waits_for_the_first_and_then_succeeds():
    first_began = threading.Event()
    committed_at: list[float] = []
    second_began_at: list[float] = []

    def first():
        with transaction.atomic():
            User.objects.create_user(username="first")
            first_began.set()
            time.sleep(0.3)
        committed_at.append(time.monotonic())

    def second():
        first_began.wait(5)
        with transaction.atomic():
            second_began_at.append(time.monotonic())
            User.objects.create_user(username="second")

    threads = [in_thread(first), in_thread(second)]
    for thread in threads:
        thread.join(10)

    assert committed_at and second_began_at, "a writer failed (see the captured log)"
    assert second_began_at[0] >= committed_at[0] - 0.01  # it waited its turn
    assert set(User.objects.values_list("username", flat=True)) == {"first", "second"}
    assert lock_is_free()

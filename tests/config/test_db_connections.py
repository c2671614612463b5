"""An HTTP request's database connections close when it finishes (under ASGI each
request runs in a thread of its own, and kept connections piled up), and a
connection the server ended costs nobody an error: the pool never hands it out
(config/adapters/postgresql/), and work it died under runs once more."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import pytest
from django.core.signals import request_finished
from django.db import DatabaseError, OperationalError, connection

from accounts.models import User
from config.platform.db_connections import retried_on_a_new_connection

T = TypeVar("T")


@pytest.mark.django_db(transaction=True)
def test_a_finished_request_closes_the_connection_its_thread_opened() -> None:
    seen: dict[str, bool] = {}

    def request_in_its_own_thread() -> None:
        User.objects.exists()  # the view's query opens this thread's connection
        seen["open during the request"] = connection.connection is not None
        request_finished.send(sender=None)
        seen["open after it"] = connection.connection is not None

    worker = threading.Thread(target=request_in_its_own_thread)
    worker.start()
    worker.join()
    assert seen == {"open during the request": True, "open after it": False}


on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL's pooled connections only"
)


def in_a_thread_of_its_own(work: Callable[[], T]) -> T:
    """``work()`` in a new thread, as a request or a command thread runs it: with a
    connection of its own, borrowed from the pool and given back when it ends."""
    with ThreadPoolExecutor(1) as pool:

        def then_give_back() -> T:
            try:
                return work()
            finally:
                connection.close()

        return pool.submit(then_give_back).result()


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_pooled_connection_the_server_ended_is_never_handed_out() -> None:
    """As after a PostgreSQL restart: the server ends a session while its connection
    waits in the pool; whoever borrows next gets a working one, with no error."""
    idle = in_a_thread_of_its_own(backend_pid)  # its connection is back in the pool
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [idle])
    time.sleep(0.2)  # the server's goodbye reaches the pooled connection
    assert in_a_thread_of_its_own(lambda: User.objects.count()) == 0
    assert in_a_thread_of_its_own(backend_pid) != idle


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_work_whose_connection_died_under_it_runs_once_more_on_a_new_one() -> None:
    attempts: list[int] = []

    def work() -> int:
        attempts.append(backend_pid())
        if len(attempts) == 1:  # the connection dies as the work uses it
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        return User.objects.count()

    outcome = in_a_thread_of_its_own(
        lambda: retried_on_a_new_connection(work, may_retry=lambda: True)
    )
    assert outcome == 0
    assert len(attempts) == 2 and attempts[0] != attempts[1]


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_work_is_not_run_again_when_something_may_have_been_committed() -> None:
    attempts: list[int] = []

    def work() -> None:
        attempts.append(1)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")

    with pytest.raises(OperationalError):
        in_a_thread_of_its_own(lambda: retried_on_a_new_connection(work, may_retry=lambda: False))
    assert attempts == [1]


@pytest.mark.django_db(transaction=True)
def test_an_error_of_the_work_itself_is_not_a_reason_to_run_it_again() -> None:
    attempts: list[int] = []

    def work() -> None:
        attempts.append(1)
        with connection.cursor() as cursor:
            cursor.execute("SELECT * FROM no_such_table")

    with pytest.raises(DatabaseError):
        in_a_thread_of_its_own(lambda: retried_on_a_new_connection(work, may_retry=lambda: True))
    assert attempts == [1]

"""``manage.py idle_sockets``, the idle benchmark's client (scripts/bench_idle.py): seated
players' sockets held open at tables where nothing happens, the window marked."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.management import call_command
from django.db import connection

from accounts.models import User
from tables.models import PresenceLease, Seat, Table
from tests.tables.test_loadtest import server  # noqa: F401  (the live server fixture)


def _seats_taken() -> int:
    try:
        return Seat.objects.filter(user__username__startswith="loadtest-").count()
    finally:
        connection.close()


class SeatsAtEachLine(io.StringIO):
    """The output, and how many of the run's players had a seat at each line."""

    def __init__(self) -> None:
        super().__init__()
        self.seated: list[int] = []

    def write(self, text: str) -> int:
        # Written from the command's event loop: the query runs on a thread of its own.
        with ThreadPoolExecutor(1) as thread:
            self.seated.append(thread.submit(_seats_taken).result())
        return super().write(text)


@pytest.mark.load
def test_it_holds_seated_sockets_and_marks_the_window(server: str) -> None:  # noqa: F811
    out = SeatsAtEachLine()
    call_command(
        "idle_sockets", "--tables", "3", "--seconds", "1", "--warmup", "3", "--url", server,
        stdout=out,
    )  # fmt: skip
    assert out.seated == [3, 3, 3, 0]  # seated from the first mark on, gone at the end
    assert out.getvalue().splitlines() == [
        "measure: seated",
        "measure: start",
        "measure: end",
        "idle: 3 sockets, 3 opened, 0 dropped, 0 error frames",
    ]
    assert not User.objects.filter(username__startswith="loadtest-").exists()
    assert not Table.objects.exists() and not PresenceLease.objects.exists()

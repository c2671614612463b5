"""``manage.py idle_sockets``, the idle benchmark's client (scripts/bench_idle.py): seated
players' sockets held open at tables where nothing happens, the window marked."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from accounts.models import User
from tables.models import PresenceLease, Table
from tests.tables.test_loadtest import server  # noqa: F401  (the live server fixture)


@pytest.mark.load
def test_it_holds_seated_sockets_and_marks_the_window(server: str) -> None:  # noqa: F811
    out = io.StringIO()
    call_command(
        "idle_sockets", "--tables", "3", "--seconds", "1", "--warmup", "3", "--url", server,
        stdout=out,
    )  # fmt: skip
    assert out.getvalue().splitlines() == [
        "measure: start",
        "measure: end",
        "idle: 3 sockets, 3 opened, 0 dropped, 0 error frames",
    ]
    assert not User.objects.filter(username__startswith="loadtest-").exists()
    assert not Table.objects.exists() and not PresenceLease.objects.exists()

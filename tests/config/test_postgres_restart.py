"""A PostgreSQL restart under a live server: no member is shown an error for it.

The test starts a PostgreSQL cluster of its own (tests/support/private_services.py;
skipped where the server binaries are absent), migrates it, and serves Felt from
it with a live Daphne and Celery worker on the test session's Redis. Then it
stops and starts that PostgreSQL under open table sockets: every connection the
server's pool held is dead, and each must be found so before a member's command
or handshake meets it.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.support.live import live_server
from tests.support.private_services import (
    PrivatePostgres,
    needs_postgres_binaries,
    private_postgres,
    run_felt_python,
)
from tests.tables.raw_socket import RawSocket

# Its PostgreSQL is its own whatever the run: the embedded run has it (scripts/test.sh).
pytestmark = [needs_postgres_binaries, pytest.mark.fault]

DATABASE = "felt"
PLAYERS = 4

# Migrates the private database and makes a table with players, as the load test does.
SET_UP = f"""
import json
from random import Random
from django.core.management import call_command
call_command("migrate", verbosity=0)
from tables.loadtest.driver import create_tables
setup = create_tables(1, Random(0), size={PLAYERS})
print(json.dumps([[p.table_id, p.session_key] for p in setup.players]))
"""


@pytest.fixture
def postgres() -> Iterator[PrivatePostgres]:
    with private_postgres() as server:
        server.create_database(DATABASE)
        yield server


def table_socket(url: str, table_id: int, session_key: str) -> RawSocket:
    raw = RawSocket.open(url, f"/ws/tables/{table_id}/", f"sessionid={session_key}")
    assert raw.status == 101, f"HTTP {raw.status}"
    assert raw.receive_json()["type"] == "snapshot"
    return raw


def answer_to(raw: RawSocket, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message``; the first frame that answers it (a snapshot, or an error)."""
    raw.send_all([json.dumps(message)])
    while True:
        frame = raw.receive_json()
        if frame["type"] in {"snapshot", "error"}:
            return frame


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_after_a_postgres_restart_no_command_or_handshake_fails(
    postgres: PrivatePostgres, tmp_path: Path
) -> None:
    database_url = postgres.url(DATABASE)
    players = json.loads(run_felt_python(SET_UP, {"DATABASE_URL": database_url}))
    with live_server(
        database_name=DATABASE,
        workdir=tmp_path,
        environment={"DATABASE_URL": database_url},
        next_hand_seconds=60.0,  # no hand is dealt by itself during the test
    ) as url:
        sockets = [table_socket(url, table_id, key) for table_id, key in players]
        # Commands at once from every socket: the server's pool holds a connection
        # for each of its command threads.
        with ThreadPoolExecutor(PLAYERS) as pool:
            seated = list(
                pool.map(lambda n: answer_to(sockets[n], {"type": "sit", "seat": n}), range(4))
            )
        assert [frame["type"] for frame in seated] == ["snapshot"] * PLAYERS

        postgres.stop()
        assert status_of(f"{url}/healthz/live") == 200, "the node itself is fine"
        assert status_of(f"{url}/healthz") == 503
        postgres.start()

        started = time.monotonic()
        answers = []
        for round_number in range(3):
            for raw in sockets:
                kind = "sit_out" if round_number % 2 == 0 else "sit_in"
                answers.append(answer_to(raw, {"type": kind}))
        assert [frame for frame in answers if frame["type"] == "error"] == []
        opened = [table_socket(url, table_id, key) for table_id, key in players]
        assert time.monotonic() - started < 10
        for raw in sockets + opened:
            raw.close()

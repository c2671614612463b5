"""Redis blinks and bursts of sockets, against a live server on a Redis of the test's own.

A reconnect storm, a Redis restart and a Redis outage are what a node meets
when a shared service blinks; a member should notice none of them beyond a
moment's wait. Each test starts a redis-server of its own over TCP, as a
deployment's is (tests/support/private_services.py), and a live Daphne and
Celery worker on it and on the test database.
"""

from __future__ import annotations

import contextlib
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

import pytest
from django.db import connection

from config.platform.close_codes import CloseCode
from tables.loadtest.driver import Player, Setup, create_tables
from tables.models import Seat
from tests.support.handshakes import handshake_burst
from tests.support.live import live_server
from tests.support.private_services import PrivateRedis, private_redis
from tests.tables.raw_socket import RawSocket

pytestmark = pytest.mark.django_db(transaction=True)


@dataclass
class Node:
    url: str
    redis: PrivateRedis


@pytest.fixture
def node(tmp_path: Path) -> Iterator[Node]:
    with (
        private_redis(tmp_path / "redis") as redis,
        live_server(
            database_name=str(connection.settings_dict["NAME"]),
            workdir=tmp_path / "server",
            environment={"REDIS_URL": redis.url},
            next_hand_seconds=60.0,  # no hand is dealt by itself during a test
        ) as url,
    ):
        yield Node(url, redis)


def test_a_burst_of_three_hundred_handshakes_gets_no_http_500(node: Node) -> None:
    setup: Setup = create_tables(1, Random(0), size=2)
    member = f"sessionid={setup.players[0].session_key}"
    # Anyone may open the lobby's socket (a signed-out one is closed with 4401 once
    # open); ten of them are a member's.
    requests = [("/ws/lobby/", None)] * 290 + [("/ws/lobby/", member)] * 10
    statuses = handshake_burst(node.url, requests)
    assert statuses == {101: 300}, statuses


def table_socket(node: Node, player: Player) -> RawSocket:
    """``player``'s table socket, open, its first snapshot read."""
    raw = RawSocket.open(
        node.url, f"/ws/tables/{player.table_id}/", f"sessionid={player.session_key}"
    )
    assert raw.status == 101, f"HTTP {raw.status}"
    assert raw.receive_json()["type"] == "snapshot"
    return raw


def chat_comes_back(raw: RawSocket, within: float) -> list[dict[str, Any]]:
    """Say a chat line every half second until one comes back over the table's group;
    every frame read on the way."""
    deadline = time.monotonic() + within
    frames: list[dict[str, Any]] = []
    number = 0
    raw.sock.settimeout(0.5)
    while time.monotonic() < deadline:
        number += 1
        raw.send_all([json.dumps({"type": "chat", "text": f"still here {number}"})])
        with contextlib.suppress(TimeoutError):
            while True:
                frame = raw.receive_json()
                frames.append(frame)
                if frame["type"] == "chat":
                    return frames
    pytest.fail(f"no chat line came back within {within} s: {frames}")


def test_after_a_redis_restart_sockets_open_and_tables_answer_within_seconds(node: Node) -> None:
    [alice, bob] = create_tables(1, Random(0), size=2).players
    before = table_socket(node, alice)
    # Sockets opened together leave the handshake limiter and the channel layer
    # several pooled connections each, all of which the restart kills.
    assert handshake_burst(node.url, [("/ws/lobby/", None)] * 40) == {101: 40}
    chat_comes_back(before, within=5)
    node.redis.restart()
    came_back = time.monotonic()
    opened = [table_socket(node, bob) for _ in range(10)]
    assert handshake_burst(node.url, [("/ws/lobby/", None)] * 40) == {101: 40}
    frames = chat_comes_back(before, within=5)
    assert [frame for frame in frames if frame["type"] == "error"] == []
    chat_comes_back(opened[-1], within=5)
    assert time.monotonic() - came_back < 8
    for raw in [before, *opened]:
        raw.close()


def frames_for(raw: RawSocket, seconds: float) -> list[dict[str, Any]]:
    """Every frame the socket receives in the next ``seconds``."""
    frames: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        raw.sock.settimeout(left)
        try:
            frames.append(raw.receive_json())
        except TimeoutError:
            break
    return frames


def test_while_redis_is_down_commands_apply_and_sockets_are_closed_not_failed(node: Node) -> None:
    """The log-in check reads the database instead of the cache, and the player who
    sent the command is shown the table read afresh when its broadcast fails; a new
    socket is closed with a code; a balancer's check of the node stays up."""
    [alice, bob] = create_tables(1, Random(0), size=2).players
    raw = table_socket(node, alice)
    node.redis.kill()
    raw.send_all([json.dumps({"type": "sit", "seat": 0})])
    frames = frames_for(raw, 3)
    assert [frame for frame in frames if frame["type"] == "error"] == []
    snapshots = [frame for frame in frames if frame["type"] == "snapshot"]
    assert snapshots and snapshots[-1]["table"]["your_seat"] == 0
    assert Seat.objects.filter(
        table_id=alice.table_id, number=0, user__username=alice.username
    ).exists()
    raw.close()
    # A socket opened meanwhile cannot join the table's groups: it is closed with a
    # code the page reconnects after, not answered with an HTTP 500.
    path = f"/ws/tables/{bob.table_id}/"
    opened = RawSocket.open(node.url, path, f"sessionid={bob.session_key}")
    assert opened.status == 101 and opened.close_code() == CloseCode.UNAVAILABLE
    opened.close()
    assert handshake_burst(node.url, [("/ws/lobby/", None)] * 20) == {101: 20}
    # The node's own check stays up for the balancer; the full one says what is down.
    with urllib.request.urlopen(f"{node.url}/healthz/live", timeout=5) as answer:
        assert answer.status == 200 and json.load(answer) == {"status": "ok"}
    with pytest.raises(urllib.error.HTTPError) as full:
        urllib.request.urlopen(f"{node.url}/healthz", timeout=10)
    assert full.value.code == 503


def test_a_change_made_while_redis_is_down_reaches_the_tables_other_viewers(node: Node) -> None:
    """Its broadcast failed during the outage: it is sent again once Redis is back, so
    a player who did not act sees the change without waiting for the table's next one."""
    [alice, bob] = create_tables(1, Random(0), size=2).players
    watching = table_socket(node, bob)
    acting = table_socket(node, alice)
    node.redis.kill()
    acting.send_all([json.dumps({"type": "sit", "seat": 0})])
    time.sleep(1)
    node.redis.start()
    seats: list[dict[str, Any]] = []
    deadline = time.monotonic() + 20  # the resends run 15.5 s from the failure
    while not any(seat.get("name") == alice.username for seat in seats):
        assert time.monotonic() < deadline, f"bob never saw alice sit down: {seats}"
        seats += [
            frame["table"]["seats"][0]
            for frame in frames_for(watching, 1)
            if frame["type"] == "snapshot"
        ]
    for raw in (watching, acting):
        raw.close()

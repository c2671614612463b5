"""Table sockets against a real Daphne: what only its websocket protocol decides.

The server is Daphne and a Celery worker as child processes on the test
database (tests/support/live.py); the misbehaving client is a bare TCP
socket (tests/tables/raw_socket.py) that writes many frames at once and never
answers the server's close frame, and whose quiet connection the kernel probes.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from random import Random

import pytest
from django.db import connection

from accounts.models import User
from config.adapters.frame_guard import FRAME_BURST, FRAME_HOLD_SECONDS, FRAME_STRIKES
from config.adapters.tcp_keepalive import IDLE_SECONDS
from tables import services
from tables.loadtest.clients import Player
from tables.loadtest.driver import create_tables
from tests.support.live import live_server
from tests.tables.raw_socket import RawSocket


@pytest.fixture
def server(
    transactional_db: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    # The consumer's own command budget out of the way: these tests are about Daphne's.
    monkeypatch.setenv("TABLES_SOCKET_BURST", "1000")
    with live_server(
        database_name=str(connection.settings_dict["NAME"]),
        workdir=tmp_path,
        next_hand_seconds=60.0,  # nobody plays here: no hand is dealt during a test
    ) as url:
        yield url


# Enough frames to be closed however Daphne's reads split the write. Read at once,
# FRAME_BURST + FRAME_STRIKES would do; but a loaded machine can hand Daphne the
# first part alone, which starts a hold (FRAME_HOLD_SECONDS), and the budget that
# refills meanwhile lets some of the rest through, each passed frame ending a run
# of strikes. 400 frames once fell a frame or two short that way, and the client
# waited for a close that never came.
FLOOD = 4 * (FRAME_BURST + FRAME_STRIKES)


def open_socket(server: str, player: Player) -> RawSocket:
    path = f"/ws/tables/{player.table_id}/"
    raw = RawSocket.open(server, path, f"sessionid={player.session_key}")
    assert raw.status == 101
    assert raw.receive_json()["type"] == "snapshot"
    return raw


def presence_of(raw: RawSocket, seat: int) -> dict[str, object]:
    while True:
        frame = raw.receive_json()
        if frame["type"] == "presence" and frame["seat"] == seat:
            return frame


def test_answers_crossing_the_servers_close_are_dropped_quietly(
    server: str, tmp_path: Path
) -> None:
    setup = create_tables(1, Random(0), size=2)
    flooder, neighbour = setup.players
    services.seat_take(
        table_id=flooder.table_id, user=User.objects.get(pk=setup.user_ids[0]), seat=0
    )
    watching = open_socket(server, neighbour)
    flooding = open_socket(server, flooder)
    # One write: Daphne closes with 4429 before the consumer has answered the first
    # frames; those answers reach a closing socket.
    flooding.send_all(["not json"] * FLOOD)
    assert flooding.close_code() == 4429
    # The consumer answered what was queued, then cleaned up as after any goodbye:
    # the other player sees seat 0's connection gone.
    assert presence_of(watching, seat=0)["disconnected_since"] is not None
    watching.close()
    flooding.close()
    log = (tmp_path / "server.log").read_text()
    assert "Attempt to send on a closed protocol" not in log
    assert "Traceback" not in log


def test_frames_sent_while_a_connection_is_held_wait_unread_and_are_not_lost(
    server: str,
) -> None:
    [player, _] = create_tables(1, Random(0), size=2).players
    raw = open_socket(server, player)
    started = time.monotonic()
    raw.send_all(["not json"] * (FRAME_BURST + 1))  # one over the budget: the rest wait
    assert raw.receive_json()["code"] == "bad_json"  # that write was read: it is held now
    raw.send_all(["not json"] * 40)  # written during the hold, read once it ends
    codes = [raw.receive_json()["code"] for _ in range(FRAME_BURST - 1 + 40)]
    assert codes == ["bad_json"] * (FRAME_BURST - 1 + 40)
    assert time.monotonic() - started >= FRAME_HOLD_SECONDS * 0.9, "nothing read while held"
    raw.close()


def test_a_flood_closed_by_daphne_cools_off_its_member_and_address(server: str) -> None:
    setup = create_tables(1, Random(0), size=2)
    flooder, neighbour = setup.players
    flooding = open_socket(server, flooder)
    flooding.send_all(["not json"] * FLOOD)
    assert flooding.close_code() == 4429
    flooding.close()
    for player in (flooder, neighbour):  # the member, and anyone at that address
        path = f"/ws/tables/{player.table_id}/"
        again = RawSocket.open(server, path, f"sessionid={player.session_key}")
        assert again.status == 101 and again.close_code() == 4430
        again.close()


def kernel_timer(server: str, client_port: int) -> tuple[int, float]:
    """The kernel's timer on the server's end of the connection from ``client_port``
    (/proc/net/tcp): its kind (2: keepalive) and the seconds until it fires."""
    server_port = int(server.rsplit(":", 1)[1])
    ends = (f":{server_port:04X}", f":{client_port:04X}")
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if (fields[1][-5:], fields[2][-5:]) == ends:
            kind, ticks = fields[5].split(":")
            return int(kind, 16), int(ticks, 16) / os.sysconf("SC_CLK_TCK")
    raise AssertionError(f"no connection from port {client_port} to {server_port}")


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads Linux's /proc/net/tcp")
def test_the_kernel_probes_a_quiet_websocket_so_a_vanished_player_is_let_go(
    server: str,
) -> None:
    [player, _] = create_tables(1, Random(0), size=2).players
    raw = open_socket(server, player)
    client_port = raw.sock.getsockname()[1]
    deadline = time.monotonic() + 5
    while (timer := kernel_timer(server, client_port))[0] != 2 and time.monotonic() < deadline:
        time.sleep(0.1)  # a retransmission timer until the last frame is acknowledged
    kind, seconds = timer
    assert kind == 2, "the server's end of a quiet websocket has the keepalive timer"
    assert seconds <= IDLE_SECONDS, "probed after the idle time, not the kernel's two hours"
    raw.close()

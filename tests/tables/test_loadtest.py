"""`manage.py loadtest`: bot clients against a real server, and the figures it reports.

The main test starts Daphne and a Celery worker as child processes on the
test database and the session's embedded Redis, exactly as `make run` would
serve them, and lets the command play a few seconds at two tables.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import numpy as np
import pytest
from asgiref.sync import sync_to_async
from django.core.management import CommandError, call_command
from django.db import connection
from hypothesis import given
from hypothesis import strategies as st
from websockets.datastructures import Headers
from websockets.exceptions import InvalidStatus
from websockets.http11 import Response

from accounts.models import User
from tables.loadtest.clients import (
    Client,
    Player,
    Stats,
    handshake_failure,
    percentile,
    random_act,
)
from tables.loadtest.driver import PLAYERS_PER_ADDRESS, log_in, spread_over_addresses
from tables.models import Table
from tests.support.live import free_port, live_server

TABLES_NEXT_HAND_SECONDS = 0.2  # the next hand right after the last


@pytest.fixture
def server(transactional_db: None, tmp_path: Path) -> Iterator[str]:
    """Daphne and a Celery worker on the test database; yields the base URL."""
    with live_server(
        database_name=str(connection.settings_dict["NAME"]),
        workdir=tmp_path,
        next_hand_seconds=TABLES_NEXT_HAND_SECONDS,
    ) as url:
        yield url


def figures(output: str) -> dict[str, float]:
    """The numbers in the command's report."""
    rate = re.search(r"(\d+) answered, ([\d.]+) actions/s", output)
    trips = re.search(r"p50 ([\d.]+), p95 ([\d.]+), p99 ([\d.]+)", output)
    assert rate and trips, output
    return {
        "answered": float(rate[1]),
        "rate": float(rate[2]),
        "p50": float(trips[1]),
        "p95": float(trips[2]),
        "p99": float(trips[3]),
    }


@pytest.mark.load
def test_it_plays_at_two_tables_against_a_real_server_and_reports_round_trips(
    server: str,
) -> None:
    out = io.StringIO()
    call_command(
        "loadtest", "--tables", "2", "--seconds", "6", "--warmup", "0", "--url", server, stdout=out
    )
    report = out.getvalue()
    print(report)  # the figures, for `pytest -s`
    numbers = figures(report)
    assert numbers["answered"] >= 3, report  # a loaded 2-core machine still manages a few
    assert numbers["rate"] > 0
    assert 0 < numbers["p50"] <= numbers["p95"] <= numbers["p99"]
    assert "server errors: none" in report and "client errors: 0" in report
    assert not User.objects.filter(username__startswith="loadtest-").exists()
    assert not Table.objects.exists()


@pytest.mark.load
def test_a_flooding_client_is_cut_off_while_the_other_table_plays_on(server: str) -> None:
    out = io.StringIO()
    call_command(
        "loadtest", "--tables", "1", "--flood", "1", "--seconds", "4", "--warmup", "0",
        "--url", server, stdout=out,
    )  # fmt: skip
    report = out.getvalue()
    print(report)
    flood = next(line for line in report.splitlines() if line.startswith("flood:"))
    # 4429; or 1006 when the server drops it before the flooder, busy writing into a
    # connection no longer read, gets to the close frame (as in the test below).
    assert re.search(r"closed by the server: (4429|1006) x1$", flood), flood
    numbers = figures(report)
    assert numbers["answered"] >= 3, report
    # unflooded, this table answers in a few ms; a flood the server kept parsing cost ~200
    assert numbers["p50"] < 100, report
    assert "server errors: none" in report and "client errors: 0" in report
    assert not Table.objects.exists()


@pytest.mark.load
def test_a_flooder_that_reconnects_is_refused_at_the_handshake_while_the_table_plays_on(
    server: str,
) -> None:
    out = io.StringIO()
    call_command(
        "loadtest", "--tables", "1", "--flood", "1", "--reconnect", "--flood-from", "127.0.0.2",
        "--seconds", "4", "--warmup", "0", "--url", server, stdout=out,
    )  # fmt: skip
    report = out.getvalue()
    print(report)
    flood = next(line for line in report.splitlines() if line.startswith("flood:"))
    # Closed once for flooding; every new socket in the cool-off refused at once. On a
    # loaded machine the server may drop the flooding connection before the flooder,
    # busy writing, reads the 4429 frame: it then sees 1006, and the 4430s that
    # follow show the server closed it for flooding all the same.
    closes = re.search(r"closed by the server: (?:1006 x1, |4429 x1, ){1,2}4430 x(\d+)$", flood)
    connections = re.search(r"(\d+) connections", flood)
    assert closes and connections, flood
    refused, opened = int(closes[1]), int(connections[1])
    assert refused >= 1 and opened - 1 - refused in (0, 1), "the last may still be open"
    numbers = figures(report)
    assert numbers["answered"] >= 3, report
    assert numbers["p50"] < 100, report
    assert "server errors: none" in report and "client errors: 0" in report


@pytest.mark.load
def test_it_can_keep_what_it_created(server: str) -> None:
    out = io.StringIO()
    call_command(
        "loadtest",
        "--tables",
        "1",
        "--seconds",
        "1",
        "--warmup",
        "0",
        "--url",
        server,
        "--no-cleanup",
        stdout=out,
    )
    table = Table.objects.get()
    players = User.objects.filter(username__startswith="loadtest-")
    assert 2 <= players.count() <= 6 and table.seat_count == players.count()


@pytest.mark.django_db
def test_it_fails_in_plain_words_when_no_server_answers() -> None:
    with pytest.raises(CommandError, match="No Felt server answers at .*make run"):
        call_command("loadtest", "--url", f"http://127.0.0.1:{free_port()}", "--seconds", "1")
    assert not User.objects.exists()


@pytest.mark.parametrize("option", [["--tables", "0"], ["--seconds", "0"], ["--tables", "x"]])
def test_it_refuses_nonsense_arguments(option: list[str]) -> None:
    with pytest.raises(CommandError, match="invalid"):
        call_command("loadtest", *option)


# --- the pure parts ---------------------------------------------------------------


@pytest.mark.pure
@given(
    st.lists(st.floats(0, 10_000), min_size=1, max_size=60), st.sampled_from([0, 50, 95, 99, 100])
)
def test_percentiles_match_numpys_linear_percentile(values: list[float], share: int) -> None:
    assert percentile(values, share) == pytest.approx(np.percentile(values, share))


def test_a_percentile_needs_values_and_a_share_in_range() -> None:
    with pytest.raises(ValueError, match="no values"):
        percentile([], 50)
    with pytest.raises(ValueError, match="between 0 and 100"):
        percentile([1.0], 101)


legal_blocks = st.builds(
    lambda can_check, call, low, extra: {
        "can_check": can_check,
        "call_amount": 0 if can_check else call,
        "min_raise_to": low,
        "max_raise_to": None if low is None else low + extra,
    },
    st.booleans(),
    st.integers(1, 500),
    st.one_of(st.none(), st.integers(2, 1000)),
    st.integers(0, 3000),
)


@pytest.mark.pure
@given(legal_blocks, st.integers(0, 10_000), st.integers(0, 2**32))
def test_random_acts_are_always_allowed_by_the_legal_block(
    legal: dict[str, Any], events: int, seed: int
) -> None:
    move = random_act(legal, f"4.{events}", Random(seed))
    assert move["type"] == "act" and move["decision"] == f"4.{events}"
    if move["action"] == "raise":
        assert legal["min_raise_to"] <= move["amount"] <= legal["max_raise_to"]
    elif move["action"] == "check":
        assert legal["can_check"]
    else:
        assert not legal["can_check"]


def snapshot(seq: int, legal: dict[str, Any] | None = None, stack: int = 100) -> dict[str, Any]:
    seats = [{"seat": 0, "occupied": True, "is_you": True, "stack": stack}]
    hand = {"is_over": legal is None}
    table = {
        "legal": legal,
        "seats": seats,
        "hand": hand,
        "decision": f"1.{seq}" if legal else None,
    }
    return {"type": "snapshot", "seq": seq, "table": table}


def test_a_round_trip_ends_at_the_first_snapshot_after_the_one_acted_on() -> None:
    stats = Stats()
    client = Client(Player(1, 0, "key", "loadtest-a"), "http://127.0.0.1:8000", stats, Random(1))
    legal = {"can_check": True, "call_amount": 0, "min_raise_to": None, "max_raise_to": None}
    [move] = client.on_frame(snapshot(7, legal), received_at=10.0)
    assert move == {"type": "act", "action": "check", "decision": "1.7"}
    client.sent_at = 10.0
    assert client.on_frame(snapshot(7, legal), received_at=10.5) == []  # same seq: still waiting
    client.on_frame(snapshot(8), received_at=10.25)
    assert stats.round_trips == [0.25]


def test_a_snapshot_still_naming_the_decision_acted_on_is_not_the_answer() -> None:
    # Another player's change crossed the action: acting again would be refused as stale.
    stats = Stats()
    client = Client(Player(1, 0, "key", "loadtest-a"), "http://127.0.0.1:8000", stats, Random(1))
    legal = {"can_check": True, "call_amount": 0, "min_raise_to": None, "max_raise_to": None}
    [move] = client.on_frame(snapshot(7, legal), received_at=10.0)
    client.sent_at = 10.0
    crossing = snapshot(8, legal)
    crossing["table"]["decision"] = move["decision"]  # the same decision, a newer seq
    assert client.on_frame(crossing, received_at=10.1) == []
    assert stats.round_trips == []
    client.on_frame(snapshot(9), received_at=10.25)  # the action's own snapshot
    assert stats.round_trips == [0.25]


def test_actions_sent_during_the_warm_up_are_played_but_not_measured() -> None:
    stats = Stats(measure_from=100.0)
    client = Client(Player(1, 0, "key", "loadtest-a"), "http://127.0.0.1:8000", stats, Random(1))
    legal = {"can_check": True, "call_amount": 0, "min_raise_to": None, "max_raise_to": None}
    assert client.on_frame(snapshot(7, legal), received_at=99.0)  # it still acts
    client.sent_at = 99.0
    assert client.on_frame(snapshot(8, legal), received_at=99.5)  # and acts again
    client.sent_at = 100.0
    client.on_frame(snapshot(9), received_at=100.25)
    assert stats.round_trips == [0.25], "only the action sent once measuring began"


@pytest.mark.parametrize("warmup", ["-1", "x"])
def test_it_refuses_a_negative_warm_up(warmup: str) -> None:
    with pytest.raises(CommandError, match="invalid"):
        call_command("loadtest", "--warmup", warmup)


def test_an_error_frame_counts_as_an_error_and_frees_the_client_to_act_again() -> None:
    stats = Stats()
    client = Client(Player(1, 0, "key", "loadtest-a"), "http://127.0.0.1:8000", stats, Random(1))
    legal = {"can_check": False, "call_amount": 20, "min_raise_to": 40, "max_raise_to": 100}
    client.on_frame(snapshot(3, legal), received_at=1.0)
    client.on_frame({"type": "error", "code": "stale_seq", "message": "..."}, received_at=1.1)
    assert stats.has_errors and stats.server_errors == {"stale_seq": 1}
    assert len(client.on_frame(snapshot(4, legal), received_at=1.2)) == 1
    assert stats.round_trips == []  # a refused action has no round trip
    assert "server errors: stale_seq x1" in stats.report(1, 1, 1.0)


def test_a_busted_player_stands_up_and_sits_again_once() -> None:
    client = Client(Player(1, 2, "key", "loadtest-a"), "http://127.0.0.1:8000", Stats(), Random(1))
    busted = snapshot(5, stack=0)
    busted["table"]["seats"] = [{"seat": n, "occupied": False} for n in range(2)] + [
        {"seat": 2, "occupied": True, "is_you": True, "stack": 0}
    ]
    assert client.on_frame(busted, 1.0) == [{"type": "leave"}, {"type": "sit", "seat": 2}]
    assert client.on_frame(busted, 1.1) == []  # already on its way back


def test_the_client_speaks_to_the_servers_websocket_with_its_origin_and_session() -> None:
    client = Client(
        Player(12, 0, "abc", "loadtest-a"), "https://felt.example:8443", Stats(), Random()
    )
    assert client.ws_url == "wss://felt.example:8443/ws/tables/12/"
    assert client.origin() == "https://felt.example:8443"
    assert client.cookie() == "sessionid=abc"


def test_past_one_address_s_share_players_connect_from_further_loopback_addresses() -> None:
    def clients(count: int) -> list[Client]:
        return [Client(Player(1, 0, "s", f"p{n}"), "", Stats(), Random()) for n in range(count)]

    many = clients(2 * PLAYERS_PER_ADDRESS + 1)
    assert spread_over_addresses(many, "http://127.0.0.1:8000") == 3
    addresses = [client.connect_options()["local_addr"][0] for client in many]
    assert addresses.count("127.0.1.1") == addresses.count("127.0.1.2") == PLAYERS_PER_ADDRESS
    assert addresses[-1] == "127.0.1.3"
    assert all(client.connect_options()["ping_interval"] is None for client in many)

    few, remote = clients(PLAYERS_PER_ADDRESS), clients(PLAYERS_PER_ADDRESS + 1)
    assert spread_over_addresses(few, "http://127.0.0.1:8000") == 1
    assert spread_over_addresses(remote, "https://felt.example") == 1, "no such address there"
    assert all("local_addr" not in client.connect_options() for client in few + remote)


def test_the_summary_line_holds_every_figure_of_the_run() -> None:
    stats = Stats(round_trips=[0.010, 0.020, 0.030, 0.040], actions_sent=5, client_cpu=0.006)
    stats.server_errors["stale_seq"] += 1
    report = stats.report(tables=2, clients=7, seconds=2.0, think=0.5, warmup=5)
    assert "measured: 2.0 s after a 5 s warm-up" in report
    assert report.splitlines()[-1] == (
        "summary: tables 2, clients 7, think 0.5 s, warm-up 5 s, actions 4, 2.0 actions/s, "
        "round trip ms p50 25.0 p95 38.5 p99 39.7 max 40.0, errors 1, reconnects 0, "
        "client CPU 1.50 ms per action"
    )


@pytest.mark.parametrize("think", ["-1", "x"])
def test_it_refuses_a_negative_thinking_time(think: str) -> None:
    with pytest.raises(CommandError, match="invalid"):
        call_command("loadtest", "--think", think)


async def test_a_thinking_client_waits_before_it_acts_but_times_from_the_send() -> None:
    class Socket:
        def __init__(self) -> None:
            self.frames = [json.dumps(snapshot(3, LEGAL))]
            self.sent: list[tuple[float, dict[str, Any]]] = []

        async def recv(self) -> str:
            if self.frames:
                return self.frames.pop()
            await asyncio.sleep(10)
            raise AssertionError("unreachable")

        async def send(self, text: str) -> None:
            self.sent.append((time.monotonic(), json.loads(text)))

    stats = Stats()
    client = Client(Player(1, 0, "key", "loadtest-a"), "http://x", stats, Random(2), think=0.3)
    socket = Socket()
    started = time.monotonic()
    await client.play(socket, deadline=started + 0.8)  # type: ignore[arg-type]
    [(sent_at, move)] = socket.sent
    assert move["type"] == "act" and move["decision"] == "1.3"
    # at most --think seconds, plus room for a busy machine to schedule the send
    assert 0 < sent_at - started <= 0.3 + 0.2, "a pause of at most --think seconds"
    assert stats.actions_sent == 1


LEGAL = {"can_check": True, "call_amount": 0, "min_raise_to": None, "max_raise_to": None}


# --- coming back after a drop, as the table page does -----------------------------------


def test_a_client_back_on_a_new_socket_times_its_return_and_plays_on_from_the_snapshot() -> None:
    stats = Stats()
    client = Client(Player(1, 0, "key", "loadtest-a"), "http://127.0.0.1:8000", stats, Random(1))
    client.lost_at, client.is_resuming = 5.0, True  # as run() leaves it on a new socket
    [move] = client.on_frame(snapshot(9, LEGAL), received_at=6.5)
    assert stats.reconnects == [1.5], "from the drop to the first snapshot on the new socket"
    assert move == {"type": "act", "action": "check", "decision": "1.9"}
    assert client.lost_at is None and not client.is_resuming
    assert "reconnects: 1 of 0 dropped sockets, back after ms: p50 1500" in stats.report(1, 1, 1)


def test_a_client_whose_seat_went_with_the_socket_sits_down_again() -> None:
    client = Client(Player(1, 1, "key", "loadtest-a"), "http://127.0.0.1:8000", Stats(), Random(1))
    client.is_resuming = True
    frame = snapshot(4)
    frame["table"]["seats"] = [{"seat": 0, "occupied": True, "stack": 100}, {"seat": 1}]
    assert client.on_frame(frame, received_at=1.0) == [{"type": "sit", "seat": 1}]


def test_a_handshake_answered_with_a_server_error_counts_as_an_error() -> None:
    stats = Stats()
    refused = InvalidStatus(Response(500, "Internal Server Error", Headers()))
    stats.failed_handshakes[handshake_failure(refused)] += 1
    stats.failed_handshakes[handshake_failure(ConnectionRefusedError())] += 2
    assert stats.has_errors and stats.server_failures == 1
    assert "failed handshakes: HTTP 500 x1, refused x2" in stats.report(1, 1, 1.0)
    assert "errors 1, reconnects 0, " in stats.report(1, 1, 1.0).splitlines()[-1]


@pytest.mark.load
async def test_a_client_closed_with_a_code_that_retrying_cannot_mend_stops(server: str) -> None:
    user = await sync_to_async(User.objects.create_user)(username="loadtest-lost")
    session = await sync_to_async(log_in)(user)
    stats = Stats()
    client = Client(Player(999_999, 0, session, user.username), server, stats, Random(1))
    await client.run(time.monotonic() + 5, asyncio.Semaphore(1))
    assert stats.client_errors == [
        "loadtest-lost (table 999999): closed with 4404: "
        "received 4404 (private use); then sent 4404 (private use)"
    ]
    assert stats.drops == 0 and stats.reconnects == [], "no such table: it does not try again"

"""The SNG load test: sit-n-gos of six websocket clients against a real server, to the end."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from accounts.models import User
from tables.models import Table
from tests.support.live import live_server
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def server(transactional_db: None, tmp_path: Path) -> Iterator[str]:
    with live_server(
        database_name=str(connection.settings_dict["NAME"]),
        workdir=tmp_path,
        next_hand_seconds=0.2,
    ) as url:
        yield url


@pytest.mark.load
def test_two_sngs_of_six_clients_play_to_their_winners(server: str) -> None:
    out = io.StringIO()
    call_command(
        "loadtest_sng", "--sngs", "2", "--levels", "2", "--url", server, "--timeout", "240",
        stdout=out,
    )  # fmt: skip
    report = out.getvalue()
    print(report)
    assert re.search(r"sngs: 2, all finished in [\d.]+ s", report)
    assert re.search(r"p50 [\d.]+, p95 [\d.]+, p99 [\d.]+", report), report
    assert "server errors: none" in report and "client errors: 0" in report
    assert not User.objects.filter(username__startswith="loadtest-").exists()
    assert not Table.objects.exists()
    assert not Tournament.objects.exclude(status="registering").exists()


@pytest.mark.long_game
def test_six_bots_play_a_sng_in_process_with_no_delays() -> None:
    out = io.StringIO()
    call_command("loadtest_sng", "--bots", "1", "--levels", "5", stdout=out)
    report = out.getvalue()
    assert re.search(r"six bots, no delays: \d+ hands in [\d.]+ s", report), report
    assert not Tournament.objects.exists()


@pytest.mark.load
def test_a_club_tournament_of_twelve_clients_plays_to_a_winner_following_every_move(
    server: str,
) -> None:
    from tournaments.models import Club

    out = io.StringIO()
    call_command(
        "loadtest_mtt", "--players", "12", "--seats", "4", "--levels", "2", "--url", server,
        "--timeout", "240", "--allow-stale", stdout=out,
    )  # fmt: skip
    report = out.getvalue()
    print(report)
    assert re.search(r"tournament: 12 players, finished in [\d.]+ s", report), report
    # A client may answer a decision the table has just moved past (its action crossing
    # a snapshot in flight, more often with sockets reopened after moves): refused as
    # stale, nothing lost.
    refused = re.search(r"server errors: (.*)", report)
    assert refused and set(re.findall(r"(\w+) x\d+", refused[1])) <= {"stale_decision"}, report
    assert "client errors: 0" in report
    moves = re.search(r"moves: (\d+), hand end to the new table's snapshot ms: p50 ", report)
    assert moves and int(moves[1]) >= 4, report  # 3 tables down to 1: at least 4 moves
    assert not User.objects.filter(username__startswith="loadtest-").exists()
    assert not Club.objects.exists() and not Table.objects.exists()

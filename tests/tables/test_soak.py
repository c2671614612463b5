"""`manage.py soak`: every table keeps dealing, against a real server, and the soak
would say so if one waited with something due."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, connections
from django.utils import timezone

from accounts.models import User
from tables import lateness
from tables.loadtest.driver import Setup
from tables.loadtest.soak import Run, verdict
from tables.loadtest.soak_checks import Watch, chip_problems
from tables.models import Hand, HandPlayer, Table
from tests.support import wait_for
from tests.support.live import live_server, restart_web_server
from tests.tables.helpers import act, deal, friends_table

# make test runs this beside everything else on the machine's cores, and the test
# server's one Celery worker (a solo pool) applies every wake-up in turn: a wake-up
# a few seconds late here is a starved machine, not a stall. The allowance still
# fails a table that dead-ends (the practice tables of issue 21 had nothing due
# for minutes); `manage.py soak` on a quiet machine holds the 2 s (docs/performance.md).
MAX_GAP_UNDER_TEST = 6.0


@pytest.fixture
def server(transactional_db: None, tmp_path: Path) -> Iterator[str]:
    """Daphne, a Celery worker and beat on the test database, hands 0.5 s apart, quick
    bots."""
    with live_server(
        database_name=str(connection.settings_dict["NAME"]),
        workdir=tmp_path,
        beat=True,
        next_hand_seconds=0.5,
        bot_delay=(0.2, 0.6),
    ) as url:
        yield url


@pytest.mark.load
def test_practice_and_friends_tables_deal_on_with_every_wake_up_on_time(server: str) -> None:
    out = io.StringIO()
    arguments = ["--practice", "3", "--friends", "3", "--seconds", "15", "--seed", "3"]
    arguments += ["--max-gap", str(MAX_GAP_UNDER_TEST), "--url", server]
    call_command("soak", *arguments, stdout=out)  # CommandError when any check fails
    report = out.getvalue()
    print(report)  # the figures, for `pytest -s`
    summary = re.search(
        r"summary: practice 3, friends 3, hands (\d+), largest gap ([\d.]+) s, idle ([\d.]+) s, "
        r"timed out 0, silent 0, chips ok, errors 0, reconnects 0",
        report,
    )
    assert summary, report
    assert int(summary[1]) >= 12, "every table deals hand after hand"
    assert float(summary[2]) < MAX_GAP_UNDER_TEST and float(summary[3]) < MAX_GAP_UNDER_TEST
    assert not Table.objects.exists() and not User.objects.exists(), "it cleans up"


def soak_in_the_background(*arguments: str, out: io.StringIO) -> Any:
    """``call_command("soak", ...)`` on a thread of its own, its connection closed after."""

    def soak() -> None:
        try:
            call_command("soak", *arguments, stdout=out)
        finally:
            connections.close_all()

    pool = ThreadPoolExecutor(1)
    running = pool.submit(soak)
    pool.shutdown(wait=False)
    return running


@pytest.mark.load
def test_players_whose_server_drops_their_sockets_come_back_and_play_on(server: str) -> None:
    out = io.StringIO()
    arguments = ["--practice", "2", "--friends", "2", "--seconds", "16", "--seed", "4"]
    arguments += ["--max-gap", str(MAX_GAP_UNDER_TEST), "--url", server, "--no-cleanup"]
    soaking = soak_in_the_background(*arguments, out=out)
    wait_for(lambda: Hand.objects.values("table").distinct().count() == 4, seconds=20)
    restart_web_server(server)  # every socket drops without a closing handshake
    restarted_at = timezone.now()
    soaking.result(timeout=60)  # CommandError when any check fails, a lost player among them
    report = out.getvalue()
    print(report)
    back = re.search(
        r"reconnects: (\d+) of (\d+) dropped sockets, back after ms: .* max (\d+)", report
    )
    assert back, report
    assert int(back[1]) == int(back[2]) >= 4, "every player's socket dropped and came back"
    # The server took a few seconds to start; the page's pauses (0.5, 1, 2, 4 s) then
    # bring everyone back within one more.
    assert int(back[3]) < 10_000, report
    assert re.search(r"chips ok, errors 0, reconnects \d+$", report), report
    for table in Table.objects.all():
        assert table.hands.filter(started_at__gt=restarted_at).exists(), f"{table} plays on"


# --- what the soak measures and how it judges -----------------------------------------


@pytest.mark.django_db
def test_the_watch_sees_a_wake_up_left_waiting_and_a_table_with_nothing_due(alice, bob):
    late, idle = friends_table(alice, bob), friends_table(bob, alice, name="Idle")
    seating = friends_table(alice, bob, name="Sitting down")
    deal(idle)
    now = timezone.now()
    Table.objects.filter(pk=late.pk).update(wake_at=now - timedelta(seconds=3))
    Table.objects.filter(pk=idle.pk).update(wake_at=None)
    Table.objects.filter(pk=seating.pk).update(wake_at=None)  # no hand dealt there yet
    watch = Watch()
    watch.sample([late.pk, idle.pk, seating.pk], now)
    watch.sample([late.pk, idle.pk, seating.pk], now + timedelta(seconds=1.5))
    assert watch.overdue[late.pk] == pytest.approx(4.5)
    assert watch.idle[idle.pk] == pytest.approx(1.5) and watch.idle[late.pk] == 0
    assert watch.idle[seating.pk] == 0, "players still sitting down are not a stall"


@pytest.mark.django_db
def test_a_late_wake_up_or_an_idle_table_fails_the_soak(alice, bob):
    table = friends_table(alice, bob)
    run = Run(Setup(), Setup(table_ids=[table.pk]))
    deal(table)
    hands = {table.pk: 1}
    lines, failures = verdict(run, hands, max_gap=2.0)
    assert failures == [] and "largest gap 0.000 s" in lines[-1]

    lateness.note(table.pk, 2.5)  # as the server notes a wake-up applied 2.5 s late
    run.watch.idle[table.pk] = 4.0
    _, failures = verdict(run, {table.pk: 0}, max_gap=2.0)
    assert failures == [
        f"table {table.pk} applied a wake-up 2.50 s late",
        f"table {table.pk} had nothing due for 4.0 s",
        f"table {table.pk} dealt no hand",
    ]
    lateness.forget([table.pk])


@pytest.mark.django_db
def test_chips_that_do_not_add_up_are_reported(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    act(table, "fold")
    assert chip_problems([table.pk]) == (1, [])
    player = HandPlayer.objects.get(hand__table=table, seat=0)
    HandPlayer.objects.filter(pk=player.pk).update(
        net=player.net + 5, final_stack=player.final_stack + 5
    )  # five chips out of nowhere
    checked, problems = chip_problems([table.pk])
    assert checked == 1
    assert f"table {table.pk} hand 1: the nets add up to +5" in problems, problems


@pytest.mark.django_db
def test_it_fails_in_plain_words_with_no_tables() -> None:
    with pytest.raises(CommandError, match="at least one table"):
        call_command("soak", "--practice", "0", "--friends", "0")

"""Every process restarted in the middle of a sit-n-go: it resumes and finishes."""

from __future__ import annotations

import time

import pytest
from celery.contrib.testing.worker import start_worker

from accounts.points import points_account_open
from config.celery import app as celery_app
from tables import play as table_play
from tables import services as table_services
from tests.support import wait_for
from tests.tournaments.helpers import balance_total, members, moved_for, register, sng, table_of
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_sng_of_away_players_survives_a_restart_and_finishes_with_points_conserved(
    make_user, settings
):
    import celery.contrib.testing.tasks  # noqa: F401 - the ping task start_worker checks

    settings.TOURNAMENTS_LEVEL_SECONDS = 1.0
    celery_app.control.purge()  # what earlier tests queued with no worker to run it
    players = members(make_user, 6)
    for player in players:
        points_account_open(user=player)
    before = balance_total()
    tournament = register(sng(structure="hyper", buy_in=100), players)
    for player in players:  # nobody at the table: it must play on by itself
        table_services.seat_sit_out(table_id=table_of(tournament).pk, user=player)

    with start_worker(celery_app, pool="solo", perform_ping_check=True, shutdown_timeout=10):
        wait_for(lambda: table_of(tournament).hand_number >= 3, seconds=30)
    hand_number = table_of(tournament).hand_number
    # Down: the worker is gone and nothing held in memory survives.
    table_play._recent_states.clear()
    time.sleep(1.5)  # a level boundary passes while nothing runs
    assert Tournament.objects.get(pk=tournament.pk).status == "running"

    with start_worker(celery_app, pool="solo", perform_ping_check=True, shutdown_timeout=10):
        from tournaments.tasks import sweep

        sweep()  # beat's first sweep after the restart: the missed level is announced
        from tables.tasks import sweep as table_sweep

        table_sweep()  # and the overdue next hand is dealt
        wait_for(lambda: Tournament.objects.get(pk=tournament.pk).status == "finished", 120)

    tournament.refresh_from_db()
    table = table_of(tournament)
    assert table.hand_number > hand_number, "play resumed where it stopped"
    last = table.hands.get(number=table.hand_number)
    expected_level = tournament.level_at(last.started_at)[0]
    assert last.level == expected_level, "the level is the clock's, not the one before the stop"
    assert sorted(tournament.entries.values_list("place", flat=True))[0] == 1
    assert moved_for(tournament) == 0
    assert balance_total() == before

"""A multi-table tournament under concurrency: every table played by its own thread
(hands ending at the same moment at several tables, each wanting to break or balance),
late registrations landing in the middle of it, and a restart of every process.

Locks are taken tournament first, then tables in id order (docs/architecture.md): a
deadlock on PostgreSQL would fail a thread with an error, and a lost update would show
as chips or places that do not add up.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.db.models import Count, Sum
from django.utils import timezone

from config.celery import app as celery_app
from tables import play as table_play
from tables import services as table_services
from tables.errors import TableError
from tables.models import Hand, Seat, Table
from tests.support import wait_for
from tests.support.tournaments import step
from tests.tables.helpers import in_threads
from tests.tournaments.helpers import members, moved_for
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.tournament_settings import TournamentSettings

pytestmark = pytest.mark.django_db(transaction=True)

PLAY_SECONDS = 200


def scheduled_and_started(players: list[Any], **settings: Any) -> Tournament:
    # Started at the scheduled moment, a second from now: its clock runs from then.
    starts_at = timezone.now() + timedelta(seconds=1)
    tournament = services.schedule_tournament(
        settings=TournamentSettings(name="Race Night", starts_at=starts_at, **settings)
    )
    for player in players:
        services.tournament_register(tournament_id=tournament.pk, user=player)
    services.mtt_start(tournament_id=tournament.pk, now=starts_at)
    return Tournament.objects.get(pk=tournament.pk)


def player_of_tables(tournament_id: int, share: int, shares: int) -> Callable[[], None]:
    """A thread playing every table whose id falls in its share, until the end."""

    def play() -> None:
        deadline = time.monotonic() + PLAY_SECONDS
        while time.monotonic() < deadline:
            if Tournament.objects.get(pk=tournament_id).status != "running":
                return
            tables = Table.objects.filter(tournament_id=tournament_id, wake_at__isnull=False)
            for table in tables.order_by("pk"):
                if table.pk % shares == share:
                    with contextlib.suppress(TableError):  # moved on meanwhile
                        step(table)
        raise AssertionError("the tournament did not end in time")

    return play


def check_the_end(tournament: Tournament, entrants: int) -> None:
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    places = sorted(tournament.entries.values_list("place", flat=True))
    assert len(places) == entrants and places.count(1) == 1
    for place in set(places):  # rule 19: a shared place covers the places below it
        assert sum(1 for q in places if q < place) == place - 1, places
    seated = Seat.objects.filter(table__tournament=tournament, stack__gt=0)
    assert seated.count() == 1
    assert seated.get().stack == entrants * tournament.blind_structure.starting_stack
    twice = seated.values("entry").annotate(n=Count("pk")).filter(n__gt=1)
    assert not twice.exists()
    prizes = tournament.entries.aggregate(total=Sum("prize"))["total"]
    assert prizes == tournament.prize_pool
    assert moved_for(tournament) == 0


def test_tables_ending_hands_at_once_balance_without_deadlock_or_lost_chips(make_user):
    players = members(make_user, 14)
    tournament = scheduled_and_started(
        players[:12], seats_per_table=5, buy_in=10, late_registration_levels=3
    )
    Tournament.objects.filter(pk=tournament.pk).update(level_seconds=1.0)
    assert Table.objects.filter(tournament=tournament).count() == 3

    late_outcomes: list[Any] = []

    def register_late() -> None:  # while tables break and balance around them
        rng = random.Random(7)
        for player in players[12:]:
            time.sleep(rng.uniform(0.05, 0.4))
            try:
                late_outcomes.append(
                    services.tournament_register(tournament_id=tournament.pk, user=player)
                )
            except TournamentError as error:  # late registration closed, or no seat
                late_outcomes.append(error)

    errors = in_threads(
        [player_of_tables(tournament.pk, share, 3) for share in range(3)] + [register_late],
        timeout=PLAY_SECONDS + 30,
    )

    assert not errors, errors
    entrants = Tournament.objects.get(pk=tournament.pk).entries.count()
    assert entrants == 12 + sum(isinstance(o, Tournament) for o in late_outcomes)
    check_the_end(tournament, entrants)


def test_a_restart_in_the_middle_resumes_every_table_and_finishes(make_user, settings):
    import celery.contrib.testing.tasks  # noqa: F401 - the ping task start_worker checks

    settings.TOURNAMENTS_LEVEL_SECONDS = 1.0
    celery_app.control.purge()  # what earlier tests queued with no worker to run it
    players = members(make_user, 6)
    # Levels of a second whose blinds soon exceed every stack: away players, who only
    # post and fold, are then all in every hand, so it ends within a minute.
    blinds = [(10, 20), (25, 50), (50, 100), (100, 200), (200, 400), (500, 1000), (1000, 2000)]
    levels = [{"small_blind": s, "big_blind": b, "minutes": 1} for s, b in blinds]
    tournament = scheduled_and_started(
        players, seats_per_table=3, buy_in=10, starting_stack=200, levels=levels
    )
    tables = list(Table.objects.filter(tournament=tournament).order_by("pk"))
    assert len(tables) == 2
    for table in tables:  # nobody at any table: they must play on by themselves
        for seat in Seat.objects.filter(table=table):
            table_services.seat_sit_out(table_id=table.pk, user=seat.user)

    def hands_at(table: Table) -> int:
        return Table.objects.get(pk=table.pk).hand_number

    def is_broken(table: Table) -> bool:
        return not Seat.objects.filter(table=table, stack__gt=0).exists()

    with start_worker(celery_app, pool="solo", perform_ping_check=True, shutdown_timeout=10):
        wait_for(lambda: sum(hands_at(t) for t in tables) >= 3, seconds=60)
    stopped_at = {t.pk: hands_at(t) for t in tables}
    # Down: the worker is gone and nothing held in memory survives.
    table_play._recent_states.clear()
    time.sleep(1.5)  # a level boundary passes while nothing runs
    assert Tournament.objects.get(pk=tournament.pk).status == "running"

    with start_worker(celery_app, pool="solo", perform_ping_check=True, shutdown_timeout=10):
        from tables.tasks import sweep as table_sweep
        from tournaments.tasks import sweep

        sweep()  # beat's first sweeps after the restart
        table_sweep()
        # each table played on, or the tournament's own flow broke it (players moved)
        wait_for(lambda: all(hands_at(t) > stopped_at[t.pk] or is_broken(t) for t in tables), 60)
        wait_for(lambda: Tournament.objects.get(pk=tournament.pk).status == "finished", 180)

    # Nobody came back, so no hand waited on anyone's clock, the final table's included
    # (its draw keeps each player's sitting-out state, as a move does).
    starts = Hand.objects.filter(table__tournament=tournament).order_by("table", "number")
    by_table: dict[int, list[Any]] = {}
    for table_id, started_at in starts.values_list("table_id", "started_at"):
        by_table.setdefault(table_id, []).append(started_at)
    longest = max(b - a for times in by_table.values() for a, b in itertools.pairwise(times))
    assert longest < timedelta(seconds=15), longest
    check_the_end(tournament, 6)

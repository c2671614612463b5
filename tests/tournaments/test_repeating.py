"""Repeating club tournaments: weekly (or every few days) until an admin stops it,
each game a tournament of its own with its own registration, the next one listed
by the beat sweep once the one before leaves registration; two sweeps at once make
one game."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import IntegrityError
from django.utils import timezone

from tests.tournaments.helpers import at_once
from tournaments import services, tasks
from tournaments.clubs import services as club_services
from tournaments.errors import TournamentError
from tournaments.models import Club, Tournament, TournamentSeries

PARIS = ZoneInfo("Europe/Paris")


def club_with_member(make_user: Any) -> Club:
    club = club_services.club_create(user=make_user("owner"), name="Thursday Crew")
    member = make_user("mia")
    club_services.club_join(slug=club.slug, user=member, token=club.invite_token)
    return club


def schedule_weekly(client: Any, club: Club, starts: datetime) -> None:
    client.force_login(club.memberships.get(role="owner").user)
    wall = starts.astimezone(PARIS)
    response = client.post(
        f"/clubs/{club.slug}/schedule/",
        {
            "name": "Thursday Night",
            "starts_at": f"{wall:%Y-%m-%dT%H:%M}",
            "time_zone": "Europe/Paris",
            "repeats": "weekly",
            "buy_in": "0",
            "seats_per_table": "6",
            "max_entrants": "30",
            "structure": "regular",
            "starting_stack": "3000",
            "late_registration_levels": "0",
            "payout_percentages": "",
            "row_kind": ["level", "level"],
            "row_small_blind": ["25", "50"],
            "row_big_blind": ["50", "100"],
            "row_ante": ["0", "0"],
            "row_minutes": ["15", "15"],
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]


def next_march_thursday_before_the_clocks_change() -> datetime:
    """20:00 in Paris on a Thursday a few days before the clocks go forward in March."""
    year = timezone.now().year + 1
    day = datetime(year, 3, 31, 20, 0, tzinfo=PARIS)
    while day.weekday() != 6:  # the last Sunday of March
        day -= timedelta(days=1)
    return (day - timedelta(days=3)).astimezone(UTC)


@pytest.mark.django_db
def test_a_weekly_game_keeps_its_paris_time_across_the_change_of_clocks(client, make_user):
    club = club_with_member(make_user)
    first = next_march_thursday_before_the_clocks_change()
    schedule_weekly(client, club, first)

    series = TournamentSeries.objects.get()
    starts = [series.start_of(n).astimezone(PARIS) for n in range(3)]
    assert [f"{s:%a %H:%M}" for s in starts] == ["Thu 20:00"] * 3
    assert starts[1].utcoffset() != starts[0].utcoffset()  # summer time between them
    assert Tournament.objects.filter(club__isnull=False).get().starts_at == first


@pytest.mark.django_db
def test_the_club_lists_the_game_and_the_one_after_and_the_sweep_lists_the_next(client, make_user):
    club = club_with_member(make_user)
    first = timezone.now().replace(microsecond=0) + timedelta(days=2)
    schedule_weekly(client, club, first)
    game = Tournament.objects.filter(club__isnull=False).get()

    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert "data-repeats>Weekly<" in page and "Repeating tournaments" in page
    assert (first + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M") in page  # the one after
    assert "Stop repeating" in page

    tasks.sweep()  # the game is still taking players: nothing more to list
    assert Tournament.objects.filter(club__isnull=False).count() == 1
    mia = club.memberships.get(user__username="mia").user
    services.tournament_register(tournament_id=game.pk, user=mia)

    with time_machine.travel(first + timedelta(minutes=1), tick=False):
        tasks.sweep()  # starts the game (one player: cancelled, her buy-in back) ...
        tasks.sweep()  # ... and a second sweep lists nothing more

    game.refresh_from_db()
    assert game.status != Tournament.Status.REGISTERING
    following = Tournament.objects.filter(club__isnull=False).exclude(pk=game.pk).get()
    assert following.status == Tournament.Status.REGISTERING
    assert following.starts_at == TournamentSeries.objects.get().start_of(1)
    assert following.series_id == game.series_id and following.club == club
    assert following.name == "Thursday Night" and following.custom_levels == game.custom_levels
    assert following.starting_stack == 3000 and following.entries.count() == 0


@pytest.mark.django_db
def test_after_a_stop_no_game_is_listed_after_the_one_already_listed(client, make_user):
    club = club_with_member(make_user)
    first = timezone.now().replace(microsecond=0) + timedelta(days=1)
    schedule_weekly(client, club, first)
    series = TournamentSeries.objects.get()

    mia = club.memberships.get(user__username="mia").user
    with pytest.raises(TournamentError) as refused:
        club_services.club_series_stop(slug=club.slug, admin=mia, series_id=series.pk)
    assert refused.value.code == "admins_only"

    response = client.post(f"/clubs/{club.slug}/series/{series.pk}/stop/", follow=True)
    assert "It stops repeating" in response.content.decode()
    assert "Stop repeating" not in response.content.decode()
    series.refresh_from_db()
    assert series.is_stopped
    assert (
        Tournament.objects.filter(club__isnull=False).get().status == Tournament.Status.REGISTERING
    )  # still runs

    with time_machine.travel(first + timedelta(minutes=1), tick=False):
        tasks.sweep()
    assert Tournament.objects.filter(club__isnull=False).count() == 1


@pytest.mark.django_db
def test_a_missed_week_is_skipped_to_the_next_start_still_to_come(client, make_user):
    club = club_with_member(make_user)
    first = timezone.now().replace(microsecond=0) + timedelta(days=1)
    schedule_weekly(client, club, first)
    series = TournamentSeries.objects.get()

    with time_machine.travel(first + timedelta(days=9), tick=False):
        tasks.sweep()  # down for over a week: the game starts late, then the next is listed
        listed = Tournament.objects.filter(
            club__isnull=False, status=Tournament.Status.REGISTERING
        ).get()
        assert listed.starts_at == series.start_of(2) > timezone.now()


@pytest.mark.django_db
def test_one_game_per_series_and_start_is_a_database_rule(client, make_user):
    club = club_with_member(make_user)
    first = timezone.now().replace(microsecond=0) + timedelta(days=1)
    schedule_weekly(client, club, first)
    game = Tournament.objects.filter(club__isnull=False).get()
    game.pk = None
    with pytest.raises(IntegrityError):
        game.save()


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_list_one_next_game(client, make_user):
    club = club_with_member(make_user)
    first = timezone.now().replace(microsecond=0) + timedelta(days=1)
    schedule_weekly(client, club, first)
    series = TournamentSeries.objects.get()
    services.tournament_cancel(tournament_id=Tournament.objects.filter(club__isnull=False).get().pk)

    now = timezone.now()
    made = at_once([lambda: services.series_extend(series_id=series.pk, now=now)] * 4)

    assert sum(isinstance(result, Tournament) for result in made) == 1
    assert (
        Tournament.objects.filter(club__isnull=False, status=Tournament.Status.REGISTERING).count()
        == 1
    )


@pytest.mark.django_db
def test_the_api_schedules_a_game_every_few_days_and_refuses_a_bad_repeat(client, make_user):
    club = club_with_member(make_user)
    client.force_login(club.memberships.get(role="owner").user)
    body = {
        "name": "Every Three Days",
        "starts_at": (timezone.now() + timedelta(days=1)).isoformat(),
        "repeat_every_days": 3,
        "time_zone": "Europe/Paris",
    }
    response = client.post(
        f"/api/clubs/{club.slug}/tournaments/", body, content_type="application/json"
    )
    assert response.status_code == 201, response.json()
    series = TournamentSeries.objects.get()
    assert (series.every_days, series.time_zone, series.repeats) == (3, "Europe/Paris",
                                                                    "Every 3 days")  # fmt: skip

    response = client.post(
        f"/api/clubs/{club.slug}/tournaments/",
        {**body, "repeat_every_days": 400},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "bad_repeat"
    assert (
        "The days between games must be a whole number from 1 to 90."
        in (response.json()["message"])
    )
    response = client.post(
        f"/api/clubs/{club.slug}/tournaments/",
        {**body, "time_zone": "Mars/Olympus"},
        content_type="application/json",
    )
    assert (response.status_code, response.json()["code"]) == (400, "bad_time_zone")
    assert TournamentSeries.objects.count() == 1

"""Scheduling a multi-table tournament: its settings, each refused with a clear error."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tournaments import services
from tournaments.clubs import services as club_services
from tournaments.errors import BadSettings
from tournaments.models import Tournament
from tournaments.tournament_settings import TournamentSettings

pytestmark = pytest.mark.django_db


def scheduled(**settings: Any) -> Tournament:
    settings.setdefault("name", "Sunday Major")
    settings.setdefault("starts_at", timezone.now() + timedelta(hours=1))
    return services.schedule_tournament(settings=TournamentSettings(**settings))


def test_a_scheduled_tournament_takes_registrations_until_its_start() -> None:
    tournament = scheduled(buy_in=100, seats_per_table=9, max_entrants=90)

    assert (tournament.kind, tournament.status) == ("mtt", "registering")
    assert (tournament.title, tournament.seats, tournament.entrant_limit) == ("Sunday Major", 9, 90)
    assert tournament.points_scope == "site"
    assert tournament.blind_structure.levels[0].big_blind == 20


def test_custom_levels_and_stack_make_the_structure() -> None:
    levels = [
        {"small_blind": 25, "big_blind": 50, "minutes": 15},
        {"small_blind": 50, "big_blind": 100, "ante": 10, "minutes": 15},
    ]
    tournament = scheduled(levels=levels, starting_stack=10_000, payout_percentages=[60, 40])

    structure = Tournament.objects.get(pk=tournament.pk).blind_structure
    assert structure.starting_stack == 10_000
    assert [(lv.big_blind, lv.ante, lv.minutes) for lv in structure.levels] == [
        (50, 0, 15),
        (100, 10, 15),
    ]
    tournament.prize_pool = 1001
    assert tournament.prizes(30) == (601, 400)


def test_without_percentages_the_field_size_decides_the_payouts() -> None:
    tournament = scheduled()
    tournament.prize_pool = 3000
    assert tournament.prizes(30) == (1050, 660, 450, 330, 270, 240)


@pytest.mark.parametrize(
    ("given", "code"),
    [
        ({"name": " "}, "bad_name"),
        ({"starts_at": timezone.now() - timedelta(minutes=1)}, "bad_starts_at"),
        ({"buy_in": -5}, "bad_buy_in"),
        ({"seats_per_table": 10}, "bad_seats"),
        ({"seats_per_table": 1}, "bad_seats"),
        ({"max_entrants": 1}, "bad_max_entrants"),
        ({"structure": "glacial"}, "bad_structure"),
        ({"levels": []}, "bad_levels"),
        ({"levels": [{"small_blind": 10, "big_blind": 20}]}, "bad_levels"),
        (
            {
                "levels": [
                    {"small_blind": 20, "big_blind": 40, "minutes": 10},
                    {"small_blind": 10, "big_blind": 20, "minutes": 10},
                ]
            },
            "bad_levels",
        ),
        (
            {
                "levels": [
                    {"small_blind": 10, "big_blind": 20, "minutes": 10},
                    {"small_blind": 10, "big_blind": 20, "minutes": 10},
                ]
            },
            "bad_levels",
        ),
        ({"levels": [{"small_blind": 20, "big_blind": 10, "minutes": 10}]}, "bad_levels"),
        ({"levels": [{"small_blind": 10, "big_blind": 20, "minutes": 0}]}, "bad_levels"),
        ({"starting_stack": 30}, "bad_starting_stack"),
        ({"late_registration_levels": 99}, "bad_late_registration"),
        ({"break_every_minutes": 60}, "bad_breaks"),
        ({"break_every_minutes": 5, "break_minutes": 5}, "bad_breaks"),
        ({"breaks": [{"after_level": 0, "minutes": 5}]}, "bad_breaks"),
        ({"breaks": [{"after_level": 18, "minutes": 5}]}, "bad_breaks"),  # after the last
        ({"breaks": [{"after_level": 4, "minutes": 61}]}, "bad_breaks"),
        ({"breaks": [{"after_level": 4}]}, "bad_breaks"),
        (
            {"breaks": [{"after_level": 4, "minutes": 5}, {"after_level": 4, "minutes": 5}]},
            "bad_breaks",
        ),
        (
            {
                "breaks": [{"after_level": 4, "minutes": 5}],
                "break_every_minutes": 60,
                "break_minutes": 5,
            },
            "bad_breaks",
        ),
        ({"payout_percentages": [50, 30]}, "bad_payouts"),
        ({"payout_percentages": [30, 70]}, "bad_payouts"),
        ({"payout_percentages": [100.0]}, "bad_payouts"),
        ({"points_scope": "club:abc"}, "bad_points_scope"),
    ],
)
def test_each_bad_setting_is_refused_with_its_code_and_nothing_is_saved(
    given: dict[str, Any], code: str
) -> None:
    with pytest.raises(BadSettings) as refused:
        scheduled(**given)
    assert refused.value.code == code
    assert refused.value.message.endswith(".")
    assert not Tournament.objects.exists()


def test_breaks_between_levels_are_kept_in_order() -> None:
    breaks = [{"after_level": 2, "minutes": 5}, {"after_level": 6, "minutes": 15}]

    tournament = scheduled(breaks=breaks)

    assert Tournament.objects.get(pk=tournament.pk).level_breaks == breaks


def test_the_level_clock_stops_for_breaks_placed_between_levels() -> None:
    start = timezone.now()
    tournament = Tournament(
        kind="mtt",
        started_at=start,
        level_breaks=[{"after_level": 2, "minutes": 5}, {"after_level": 3, "minutes": 10}],
    )  # the regular structure: 10-minute levels
    at = lambda minutes: start + timedelta(minutes=minutes)  # noqa: E731

    assert tournament.break_ends_at(at(19)) is None and tournament.level_at(at(19))[0] == 1
    assert tournament.level_ends_at(1) == at(20)  # the break begins as level 2 ends
    assert tournament.break_ends_at(at(22)) == at(25)
    assert tournament.level_at(at(22))[0] == tournament.level_at(at(25))[0] == 2
    assert tournament.level_ends_at(2) == at(35) and tournament.break_ends_at(at(40)) == at(45)
    assert tournament.level_at(at(45))[0] == 3 and tournament.level_ends_at(3) == at(55)
    assert tournament.break_ends_at(at(200)) is None  # no more breaks: play runs on
    assert tournament.play_seconds(at(200)) == 185 * 60  # 15 minutes of breaks


def test_a_club_s_points_scope_makes_it_the_club_s_tournament(make_user) -> None:
    club = club_services.club_create(user=make_user("owner"), name="Thursday Crew")

    tournament = scheduled(points_scope=club.scope)

    assert (tournament.points_scope, tournament.club) == (club.scope, club)
    with pytest.raises(BadSettings) as refused:
        scheduled(points_scope=f"club:{club.pk + 1}")
    assert refused.value.code == "bad_points_scope"


def _api(user: Any) -> Any:
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(user)
    return api


def test_staff_schedule_a_tournament_through_the_api(make_user) -> None:
    staff = make_user("director", is_staff=True)
    body = {
        "name": "Club Championship",
        "starts_at": (timezone.now() + timedelta(hours=2)).isoformat(),
        "buy_in": 500,
        "seats_per_table": 8,
        "max_entrants": 80,
        "levels": [
            {"small_blind": 50, "big_blind": 100, "minutes": 20},
            {"small_blind": 100, "big_blind": 200, "ante": 25, "minutes": 20},
        ],
        "starting_stack": 20_000,
        "late_registration_levels": 2,
        "breaks": [{"after_level": 1, "minutes": 10}],
        "payout_percentages": [50, 30, 20],
    }

    response = _api(staff).post("/api/tournaments/", body, format="json")

    assert response.status_code == 201, response.json()
    made = Tournament.objects.get(pk=response.json()["id"])
    assert (made.kind, made.title, made.seats, made.max_entrants) == ("mtt", body["name"], 8, 80)
    assert made.custom_levels[1] == {
        "small_blind": 100,
        "big_blind": 200,
        "ante": 25,
        "minutes": 20,
    }
    assert made.payout_percentages == [50, 30, 20]
    assert made.level_breaks == [{"after_level": 1, "minutes": 10}]
    listed = _api(make_user("reader")).get("/api/tournaments/?status=registering").json()["results"]
    assert made.pk in [t["id"] for t in listed]


def test_a_member_who_is_not_staff_cannot_schedule(make_user) -> None:
    body = {"name": "Mine", "starts_at": (timezone.now() + timedelta(hours=2)).isoformat()}
    response = _api(make_user("member")).post("/api/tournaments/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (403, "staff_only")
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": "X"}, "bad_starts_at"),
        ({"name": "X", "starts_at": "tomorrow"}, "bad_starts_at"),
        ({"name": "X", "starts_at": "2999-01-01T00:00:00"}, "bad_starts_at"),  # no zone
        ({"name": "X", "starts_at": "2999-01-01T00:00:00Z", "seats_per_table": 12}, "bad_seats"),
        ({"name": "X", "starts_at": "2999-01-01T00:00:00Z", "levels": [{}]}, "bad_levels"),
    ],
)
def test_a_bad_body_is_a_400_with_a_code_and_saves_nothing(make_user, body, code) -> None:
    staff = make_user("director", is_staff=True)
    response = _api(staff).post("/api/tournaments/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, code)
    assert response.json()["message"]
    assert not Tournament.objects.exists()

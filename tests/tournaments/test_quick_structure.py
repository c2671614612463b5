"""The quick structure on a club's scheduling page: a few choices fill the level rows
(with or without the page's script: the button posts the form back), the rows stay
editable, and what is scheduled is what the rows then say."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import timezone

import engine
from tournaments.clubs import services as club_services
from tournaments.models import Club, Tournament
from tournaments.tournament_settings import TournamentSettings, clean_breaks, clean_levels

pytestmark = pytest.mark.django_db
NEXT_YEAR = timezone.now().year + 1


def test_each_speed_makes_levels_the_schedule_accepts_rising_to_four_stacks() -> None:
    for speed in engine.SPEEDS:
        quick = engine.quick_structure(starting_stack=5000, level_minutes=20, speed=speed)
        levels = [
            {"small_blind": lv.small_blind, "big_blind": lv.big_blind, "ante": lv.ante,
             "minutes": lv.minutes}
            for lv in quick.levels
        ]  # fmt: skip
        assert clean_levels(levels) == levels
        assert levels[-1]["big_blind"] >= 4 * 5000 > levels[-2]["big_blind"]
        assert all(lv["small_blind"] * 2 == lv["big_blind"] for lv in levels)
    slow, fast = (engine.quick_structure(starting_stack=5000, level_minutes=20, speed=s)
                  for s in ("slow", "fast"))  # fmt: skip
    assert len(slow.levels) > len(fast.levels)


def test_a_target_length_puts_the_big_blind_at_a_stack_about_then() -> None:
    quick = engine.quick_structure(
        starting_stack=10_000, level_minutes=20, target_minutes=240, break_every_levels=4
    )
    minutes, breaks = 0, dict(quick.breaks)
    for number, level in enumerate(quick.levels, start=1):
        if minutes >= 240:
            break
        in_play = level
        minutes += level.minutes + breaks.get(number, 0)
    assert 10_000 / 2 <= in_play.big_blind <= 10_000 * 2
    assert clean_breaks([{"after_level": a, "minutes": m} for a, m in quick.breaks],
                        len(quick.levels)) == [
        {"after_level": 4, "minutes": 10}, {"after_level": 8, "minutes": 10},
        {"after_level": 12, "minutes": 10}]  # fmt: skip


@pytest.fixture
def club(make_user) -> Club:
    return club_services.club_create(user=make_user("owner"), name="Thursday Crew")


@pytest.fixture
def admin_client(client, club):
    client.force_login(club.memberships.get(role="owner").user)
    return client


def schedule_body(**fields: Any) -> dict[str, Any]:
    return {
        "name": "Club Night",
        "starts_at": f"{NEXT_YEAR}-01-15T18:30",
        "time_zone": "UTC",
        "buy_in": "100",
        "seats_per_table": "6",
        "max_entrants": "30",
        "structure": "regular",
        "starting_stack": "1500",
        "late_registration_levels": "0",
        "payout_percentages": "",
        "row_kind": ["level"],
        "row_small_blind": ["10"],
        "row_big_blind": ["20"],
        "row_ante": ["0"],
        "row_minutes": ["10"],
        **fields,
    }


def quick_choices(**fields: Any) -> dict[str, Any]:
    return {
        "quick-starting_stack": "10000",
        "quick-level_minutes": "20",
        "quick-speed": "steady",
        "quick-target_hours": "",
        "quick-break_every_levels": "4",
        "quick-break_minutes": "15",
        **fields,
    }


def rows_of(page: str) -> list[tuple[str, str, str, str]]:
    """Each row shown (kind, small blind, big blind, minutes), blank ones left out."""
    found = []
    listed = page.split("data-level-rows>", 1)[1].split("</ol>", 1)[0]  # not the templates
    for row in re.findall(r'<li class="level-row.*?</li>', listed, re.S):
        kind = "break" if 'value="break"' in row and "is-break" in row else "level"
        values = dict(re.findall(r'name="row_(\w+)"[^>]*value="([^"]*)"', row))
        if any(values.values()):
            found.append((kind, values.get("small_blind", ""), values.get("big_blind", ""),
                          values["minutes"]))  # fmt: skip
    return found


def test_the_page_offers_the_quick_structure(admin_client, club) -> None:
    page = admin_client.get(f"/clubs/{club.slug}/schedule/").content.decode()

    assert "Quick structure" in page and 'name="quick"' in page
    for name in ("starting_stack", "level_minutes", "speed", "target_hours", "break_every_levels"):
        assert f'name="quick-{name}"' in page


def test_fill_the_levels_puts_the_quick_structure_in_the_rows_and_schedules_nothing(
    admin_client, club
) -> None:
    body = schedule_body(**quick_choices(), quick="fill")
    page = admin_client.post(f"/clubs/{club.slug}/schedule/", body).content.decode()

    quick = engine.quick_structure(
        starting_stack=10_000, level_minutes=20, break_every_levels=4, break_minutes=15
    )
    shown = rows_of(page)
    assert [r for r in shown if r[0] == "level"] == [
        ("level", str(lv.small_blind), str(lv.big_blind), "20") for lv in quick.levels
    ]
    assert shown[4] == ("break", "", "", "15")  # after level 4
    assert f"{len(quick.levels)} levels filled in" in page
    assert 'name="starting_stack"' in page and 'value="10000"' in page
    assert 'value="Club Night"' in page  # the rest of the form kept as typed
    assert not Tournament.objects.exists()


def test_the_filled_rows_edited_by_hand_are_what_is_scheduled(admin_client, club) -> None:
    quick = engine.quick_structure(starting_stack=10_000, level_minutes=20)
    levels = list(quick.levels[:5])
    body = schedule_body(
        starting_stack="10000",
        row_kind=["level"] * 5,
        row_small_blind=[str(lv.small_blind) for lv in levels],
        row_big_blind=[str(lv.big_blind) for lv in levels],
        row_ante=["0"] * 5,
        row_minutes=["20", "20", "30", "20", "20"],  # one row changed after filling
    )
    response = admin_client.post(f"/clubs/{club.slug}/schedule/", body)

    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert [level["minutes"] for level in tournament.custom_levels] == [20, 20, 30, 20, 20]
    assert tournament.starting_stack == 10_000


def test_a_refused_choice_is_said_by_its_field_and_the_rows_stay(admin_client, club) -> None:
    body = schedule_body(**quick_choices(**{"quick-level_minutes": "0"}), quick="fill")
    page = admin_client.post(f"/clubs/{club.slug}/schedule/", body).content.decode()

    assert "Each level&#x27;s minutes must be a whole number from 1 to 240." in page
    assert rows_of(page) == [("level", "10", "20", "10")]
    assert not Tournament.objects.exists()


def test_quick_choices_posted_with_schedule_do_not_change_the_rows(admin_client, club) -> None:
    response = admin_client.post(f"/clubs/{club.slug}/schedule/", schedule_body(**quick_choices()))

    assert response.status_code == 302
    assert Tournament.objects.get().custom_levels == [
        {"small_blind": 10, "big_blind": 20, "ante": 0, "minutes": 10}
    ]


def test_settings_from_a_quick_structure_are_accepted_whole() -> None:
    quick = engine.quick_structure(starting_stack=3000, level_minutes=15, target_minutes=180,
                                   break_every_levels=6)  # fmt: skip
    settings = TournamentSettings(
        name="Quick",
        starts_at=timezone.now() + timezone.timedelta(days=1),
        starting_stack=3000,
        levels=[{"small_blind": lv.small_blind, "big_blind": lv.big_blind, "ante": lv.ante,
                 "minutes": lv.minutes} for lv in quick.levels],
        breaks=[{"after_level": a, "minutes": m} for a, m in quick.breaks],
    )  # fmt: skip
    assert settings.levels and len(settings.levels) == len(quick.levels)

"""A club's scheduling page: the level editor's rows (levels and breaks, read back as
the service's levels and breaks, a refused row marked with its reason) and the start
typed in the admin's own time zone, kept in UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from tournaments.clubs import services as club_services
from tournaments.models import Club, Tournament

pytestmark = pytest.mark.django_db

NEXT_YEAR = timezone.now().year + 1


@pytest.fixture
def club(make_user) -> Club:
    return club_services.club_create(user=make_user("owner"), name="Thursday Crew")


@pytest.fixture
def admin_client(client, club):
    client.force_login(club.memberships.get(role="owner").user)
    return client


def rows(*given: tuple[Any, ...]) -> dict[str, list[str]]:
    """The editor's fields for rows given as (small, big, ante, minutes) or
    ("break", minutes), in order."""
    fields: dict[str, list[str]] = {
        f"row_{name}": [] for name in ("kind", "small_blind", "big_blind", "ante", "minutes")
    }
    for row in given:
        if row[0] == "break":
            values = ["break", "", "", "", str(row[1])]
        else:
            values = ["level", *(str(v) for v in row)]
        for name, value in zip(fields, values, strict=True):
            fields[name].append(value)
    return fields


LEVELS = rows((25, 50, 0, 20), (50, 100, 0, 20), ("break", 10), (100, 200, 25, 20))


def post(client, club: Club, **fields: Any):
    body: dict[str, Any] = {
        "name": "Club Night",
        "starts_at": f"{NEXT_YEAR}-01-15T18:30",
        "time_zone": "Europe/Paris",
        "buy_in": "100",
        "seats_per_table": "6",
        "max_entrants": "30",
        "structure": "regular",
        "starting_stack": "5000",
        "late_registration_levels": "1",
        "payout_percentages": "",
        **LEVELS,
    }
    body.update(fields)
    return client.post(f"/clubs/{club.slug}/schedule/", body)


def test_the_page_starts_from_the_regular_levels_with_no_json_to_type(admin_client, club):
    page = admin_client.get(f"/clubs/{club.slug}/schedule/").content.decode()

    assert page.count('name="row_small_blind"') == 18 + 3 + 2  # levels, blanks, templates
    assert 'value="10"' in page and 'name="time_zone"' in page
    assert 'type="datetime-local"' in page and "JSON" not in page and "points_scope" not in page
    assert 'id="level-presets"' in page and "schedule.js" in page


def test_rows_become_the_levels_and_breaks_between_them(admin_client, club):
    response = post(admin_client, club)

    tournament = Tournament.objects.get()
    assert response["Location"] == f"/tournaments/{tournament.pk}/"
    assert tournament.custom_levels == [
        {"small_blind": 25, "big_blind": 50, "ante": 0, "minutes": 20},
        {"small_blind": 50, "big_blind": 100, "ante": 0, "minutes": 20},
        {"small_blind": 100, "big_blind": 200, "ante": 25, "minutes": 20},
    ]
    assert tournament.level_breaks == [{"after_level": 2, "minutes": 10}]
    assert (tournament.starting_stack, tournament.late_registration_levels) == (5000, 1)
    assert (tournament.club, tournament.points_scope) == (club, club.scope)
    page = admin_client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert page.count("data-level-row=") == 3 and page.count("data-break-row") == 1


def test_a_preset_left_as_it_is_is_kept_by_its_name(admin_client, club):
    turbo = [(level[0], level[1], level[2], 5) for level in _ladder()]

    post(admin_client, club, structure="turbo", starting_stack="", **rows(*turbo))

    tournament = Tournament.objects.get()
    assert (tournament.structure, tournament.custom_levels) == ("turbo", None)


def _ladder() -> list[tuple[int, int, int]]:
    import engine

    return [(x.small_blind, x.big_blind, x.ante) for x in engine.STRUCTURES["turbo"].levels]


def test_blank_rows_are_left_out(admin_client, club):
    post(admin_client, club, **rows((25, 50, "", 20), ("", "", "", ""), (50, 100, 0, 20)))

    assert len(Tournament.objects.get().custom_levels) == 2


def test_the_start_in_the_admin_s_zone_is_kept_as_the_same_instant_in_utc(admin_client, club):
    post(admin_client, club, starts_at=f"{NEXT_YEAR}-07-15T18:30", time_zone="America/New_York")

    assert Tournament.objects.get().starts_at == datetime(NEXT_YEAR, 7, 15, 22, 30, tzinfo=UTC)


def test_without_the_script_the_start_is_read_in_utc(admin_client, club):
    post(admin_client, club, time_zone="")

    assert Tournament.objects.get().starts_at == datetime(NEXT_YEAR, 1, 15, 18, 30, tzinfo=UTC)


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "../../etc/passwd", "America", "x" * 65])
def test_an_unknown_time_zone_is_refused_by_the_start(admin_client, club, zone):
    response = post(admin_client, club, time_zone=zone)

    assert response.status_code == 200 and not Tournament.objects.exists()
    form = response.context["form"]
    assert "time zone" in form.errors["starts_at"][0]
    assert "time_zone" not in form.errors


def test_a_time_the_clocks_skip_is_refused_and_one_they_pass_twice_is_the_first(admin_client, club):
    # the second Sunday of March: New York's clocks go from 2:00 to 3:00
    march = datetime(NEXT_YEAR, 3, 8)
    spring = march + timedelta(days=(6 - march.weekday()) % 7)
    skipped = post(
        admin_client, club, starts_at=f"{spring:%Y-%m-%d}T02:30", time_zone="America/New_York"
    )

    assert not Tournament.objects.exists()
    assert "does not exist in America/New_York" in skipped.context["form"].errors["starts_at"][0]

    # the first Sunday of November: 1:00 to 2:00 comes twice; the first is still EDT
    november = datetime(NEXT_YEAR, 11, 1)
    autumn = november + timedelta(days=(6 - november.weekday()) % 7)
    post(admin_client, club, starts_at=f"{autumn:%Y-%m-%d}T01:30", time_zone="America/New_York")

    assert Tournament.objects.get().starts_at == datetime(
        autumn.year, autumn.month, autumn.day, 5, 30, tzinfo=UTC
    )


def error_rows(response) -> list[tuple[int, str]]:
    """(index, error) of each row the page marks."""
    return [(i, row.error) for i, row in enumerate(response.context["rows"]) if row.error]


def test_an_unreadable_row_is_marked_and_nothing_is_scheduled(admin_client, club):
    response = post(admin_client, club, **rows((25, 50, 0, 20), (50, "lots", 0, 20)))

    assert response.status_code == 200 and not Tournament.objects.exists()
    assert error_rows(response) == [
        (1, "Give the small blind, big blind and minutes as whole numbers "
            "(the ante too, or leave it empty).")
    ]  # fmt: skip
    page = response.content.decode()
    assert "see the rows marked below" in page and 'class="error row-error"' in page


def test_blinds_that_do_not_rise_are_marked_on_their_row(admin_client, club):
    response = post(
        admin_client,
        club,
        **rows((25, 50, 0, 20), ("break", 5), (50, 100, 0, 20), (50, 100, 0, 20)),
    )

    assert not Tournament.objects.exists()
    assert error_rows(response) == [(3, "Level 3's blinds must rise above level 2's.")]


@pytest.mark.parametrize(
    ("given", "marked"),
    [
        (rows(("break", 5), (25, 50, 0, 20), (50, 100, 0, 20)), (0, "A break comes after a level")),
        (
            rows((25, 50, 0, 20), ("break", 5), ("break", 5), (50, 100, 0, 20)),
            (2, "Break 2 comes after level 1, where a break already is"),
        ),
        (
            rows((25, 50, 0, 20), (50, 100, 0, 20), ("break", 5)),
            (2, "Break 1 must come between two of the 2 levels."),
        ),
        (
            rows((25, 50, 0, 20), ("break", 90), (50, 100, 0, 20)),
            (1, "Break 1's minutes must be a whole number from 1 to 60."),
        ),
    ],
)
def test_a_misplaced_or_too_long_break_is_marked_on_its_row(admin_client, club, given, marked):
    response = post(admin_client, club, **given)

    assert not Tournament.objects.exists()
    [(index, error)] = error_rows(response)
    assert index == marked[0] and error.startswith(marked[1])


def test_rows_whose_fields_do_not_line_up_are_refused_clearly(admin_client, club):
    broken = {**LEVELS, "row_ante": ["0"]}

    response = post(admin_client, club, **broken)

    assert response.status_code == 200 and not Tournament.objects.exists()
    assert "The level rows arrived incomplete" in response.content.decode()


def test_no_rows_at_all_is_refused(admin_client, club):
    response = post(admin_client, club, **rows())

    assert response.status_code == 200 and not Tournament.objects.exists()
    assert "Give from 1 to 60 blind levels." in response.content.decode()


def test_a_preset_button_without_the_script_loads_its_levels_and_schedules_nothing(
    admin_client, club
):
    response = post(admin_client, club, preset="hyper", name="Kept")

    assert response.status_code == 200 and not Tournament.objects.exists()
    shown = [row for row in response.context["rows"] if not row.is_blank]
    assert len(shown) == 18 and {row.minutes for row in shown} == {"3"}
    page = response.content.decode()
    assert 'value="Kept"' in page and 'name="starting_stack" value="500"' in page
    assert 'name="structure" value="hyper"' in page


def test_club_pages_send_the_start_in_utc_said_so_for_the_browser_to_show_in_its_zone(
    admin_client, club
):
    post(admin_client, club, starts_at=f"{NEXT_YEAR}-07-15T18:30", time_zone="America/New_York")
    tournament = Tournament.objects.get()
    utc = datetime(NEXT_YEAR, 7, 15, 22, 30, tzinfo=UTC)
    shown = (
        f'<time datetime="{NEXT_YEAR}-07-15T22:30:00Z" data-local>{utc:%a} 15 Jul, 22:30 (UTC)'
        "</time>"
    )

    for path in ("/clubs/", f"/clubs/{club.slug}/", f"/tournaments/{tournament.pk}/"):
        page = admin_client.get(path).content.decode()
        assert shown in page, path
        assert "js/localtime.js" in page
    clubs = admin_client.get("/clubs/").content.decode()
    assert "Club Night</a> (<span data-game>No-Limit Hold&#x27;em</span>), <time" in clubs

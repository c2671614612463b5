"""Scheduling refusals read as sentences, the same on the club's page and in the API:
"The start must be in the future", not a rule about zones."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.clubs import services as club_services

pytestmark = pytest.mark.django_db
FUTURE = "The start must be in the future."
BUY_IN = "The buy-in must be a whole number from 0 to 1,000,000,000."


@pytest.fixture
def club(make_user, client):
    club = club_services.club_create(user=make_user("owner"), name="Thursday Crew")
    client.force_login(club.memberships.get(role="owner").user)
    return club


def page_post(client, club, **fields):
    body = {
        "name": "Club Night",
        "starts_at": f"{timezone.now().year + 1}-01-15T18:30",
        "time_zone": "UTC",
        "buy_in": "100",
        "seats_per_table": "6",
        "max_entrants": "30",
        "structure": "regular",
        "late_registration_levels": "0",
        "row_kind": ["level"],
        "row_small_blind": ["10"],
        "row_big_blind": ["20"],
        "row_ante": ["0"],
        "row_minutes": ["10"],
        **fields,
    }
    return (
        client.post(f"/clubs/{club.slug}/schedule/", body).content.decode().replace("&#x27;", "'")
    )


def api_post(client, club, **fields):
    body = {"name": "Club Night", "starts_at": (timezone.now() + timedelta(days=1)).isoformat()}
    response = client.post(
        f"/api/clubs/{club.slug}/tournaments/", {**body, **fields}, content_type="application/json"
    )
    assert response.status_code == 400
    return response.json()


def test_a_start_in_the_past_is_said_plainly_on_the_page_and_in_the_api(client, club):
    assert FUTURE in page_post(client, club, starts_at="2020-01-15T18:30")
    refused = api_post(client, club, starts_at="2020-01-15T18:30:00Z")
    assert (refused["code"], refused["message"]) == ("bad_starts_at", FUTURE)


def test_a_start_without_its_zone_in_the_api_says_how_to_give_it(client, club):
    refused = api_post(client, club, starts_at="2030-01-15T18:30:00")
    assert "Give the start with its time zone" in refused["message"]


def test_an_unreadable_start_or_buy_in_is_said_in_the_same_words_on_both(client, club):
    page = page_post(client, club, starts_at="next thursday", buy_in="ten")
    assert "Give the start as a date and a time" in page and BUY_IN in page
    assert "Enter a valid date/time" not in page and "Enter a whole number" not in page

    assert BUY_IN in api_post(client, club, buy_in="ten")["message"]
    assert BUY_IN in api_post(client, club, buy_in=-5)["message"]
    assert (
        "Give the start as a date and a time" in api_post(client, club, starts_at="soon")["message"]
    )


def test_a_missing_name_asks_for_it(client, club):
    assert "Give the name." in page_post(client, club, name="")

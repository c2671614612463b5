"""ROI and ITM (POKER_RULES' statistics) in a player's stats, worked out by hand."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tournaments.models import Entry, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_redis")]


def finished(buy_in: int, results: dict, status: str = "finished") -> Tournament:
    """A tournament with ``results``: user -> prize (each paid ``buy_in``)."""
    tournament = Tournament.objects.create(buy_in=buy_in, status=status)
    for place, (user, prize) in enumerate(results.items(), start=1):
        Entry.objects.create(
            tournament=tournament,
            user=user,
            name=user.username,
            buy_in=buy_in,
            paid=buy_in,
            place=place,
            prize=prize,
        )
    return tournament


def stats_of(viewer, username: str) -> dict:
    api = APIClient()
    api.force_authenticate(viewer)
    response = api.get(f"/api/players/{username}/stats/")
    assert response.status_code == 200
    return response.json()["stats"]


def test_roi_and_itm_count_finished_tournaments(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    finished(100, {alice: 390, bob: 210})  # alice wins 65% of a 600 pool
    finished(100, {bob: 390, alice: 0})  # alice out of the money
    finished(0, {alice: 0})  # a freeroll: no buy-in, no prize
    finished(500, {alice: 0}, status="running")  # not over: not counted

    stats = stats_of(alice, "alice")
    # (390 - 200) / 200 = 95 %; paid in 1 of 3
    assert stats["roi"] == {"value": 95.0, "numerator": 190, "denominator": 200}
    assert stats["itm"] == {"value": 33.33, "numerator": 1, "denominator": 3}


def test_another_player_counts_only_tournaments_both_played(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    finished(100, {alice: 390, carol: 210})
    finished(100, {bob: 390, alice: 0})

    stats = stats_of(bob, "alice")  # bob only knows the second one
    assert stats["roi"] == {"value": -100.0, "numerator": -100, "denominator": 100}
    assert stats["itm"] == {"value": 0.0, "numerator": 0, "denominator": 1}


def test_with_only_freerolls_roi_has_no_value(make_user):
    alice = make_user("alice")
    finished(0, {alice: 0})
    assert stats_of(alice, "alice")["roi"] == {"value": None, "numerator": 0, "denominator": 0}

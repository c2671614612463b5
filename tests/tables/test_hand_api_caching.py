"""What a poller and a cache get from the hand endpoints: validators on a finished
hand (ETag, Last-Modified, Cache-Control), 304 when nothing changed, and the
``ended_since`` filter to fetch only what is new."""

from __future__ import annotations

from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from tables.models import Hand
from tests.tables.helpers import friends_table
from tests.tables.recorded import (
    FOLDED_TO_A_RAISE,
    SHOWDOWN_WITH_MUCK,
    record_hand,
    recorded_state,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_redis")]
TEXTS = ("", "phh", "pokerstars")


@pytest.fixture
def hand(alice, bob, carol) -> Hand:
    table = friends_table(alice, bob, carol, seat_count=3)
    return record_hand(table, recorded_state(SHOWDOWN_WITH_MUCK))


def api_for(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


@pytest.mark.parametrize("text", TEXTS)
def test_a_finished_hand_answers_a_304_to_a_caller_that_has_it(alice, hand, text) -> None:
    api = api_for(alice)
    first = api.get(f"/api/hands/{hand.pk}/{text}")
    assert first.status_code == 200 and first["Cache-Control"] == "private, max-age=3600"
    again = api.get(f"/api/hands/{hand.pk}/{text}", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"]
    since = api.get(f"/api/hands/{hand.pk}/{text}", HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert since.status_code == 304
    stale = api.get(f"/api/hands/{hand.pk}/{text}", HTTP_IF_NONE_MATCH='"something-else"')
    assert stale.status_code == 200 and stale.content == first.content


def test_each_viewer_has_their_own_etag(alice, bob, hand) -> None:
    mine = api_for(alice).get(f"/api/hands/{hand.pk}/")
    theirs = api_for(bob).get(f"/api/hands/{hand.pk}/", HTTP_IF_NONE_MATCH=mine["ETag"])
    assert theirs.status_code == 200, "bob saw other cards than alice: not alice's copy"
    assert theirs["ETag"] != mine["ETag"]


def test_a_hand_whose_all_in_ev_is_pending_is_revalidated_every_time(alice, hand) -> None:
    Hand.objects.filter(pk=hand.pk).update(allin_ev_pending=True)
    answer = api_for(alice).get(f"/api/hands/{hand.pk}/")
    assert answer["Cache-Control"] == "private, no-cache"
    assert not answer.has_header("Last-Modified") and answer["ETag"]


def test_ended_since_gives_a_poller_only_the_hands_that_ended_after(alice, hand) -> None:
    later = record_hand(
        hand.table, recorded_state(FOLDED_TO_A_RAISE), hand.started_at + timedelta(minutes=5)
    )
    api = api_for(alice)
    listed = api.get("/api/hands/").json()["results"]
    ends = {row["id"]: row["ended_at"] for row in listed}
    assert set(ends) == {hand.pk, later.pk}
    newer = api.get("/api/hands/", {"ended_since": ends[later.pk]}).json()["results"]
    assert [row["id"] for row in newer] == [later.pk]
    bad = api.get("/api/hands/?ended_since=soon")
    assert bad.status_code == 400 and bad.json()["parameters"] == ["ended_since"]

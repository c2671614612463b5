"""The hand-history pages: my hands, the replayer, a player's stats, each per viewer."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse

from tests.tables.helpers import deal, friends_table
from tests.tables.recorded import (
    FOLDED_TO_A_RAISE,
    SHOWDOWN_WITH_MUCK,
    record_hand,
    recorded_state,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def hands(alice, bob, carol):
    table = friends_table(alice, bob, carol, seat_count=3)
    first = record_hand(table, recorded_state(SHOWDOWN_WITH_MUCK))
    second = record_hand(
        table, recorded_state(FOLDED_TO_A_RAISE), first.started_at + timedelta(minutes=1)
    )
    return first, second


def page_of(client, user, url) -> str:
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def replay_steps(page: str) -> list[dict]:
    data = re.search(
        r'<script id="replay-steps" type="application/json">(.*?)</script>', page, re.S
    )
    return json.loads(data.group(1))


def test_my_hands_are_listed_newest_first_with_my_cards_and_net(client, alice, hands):
    page = page_of(client, alice, reverse("tables:hand_history_list"))
    showdown, folded = hands
    assert page.index(f"/hands/{folded.pk}/") < page.index(f"/hands/{showdown.pk}/")
    assert "As Ah" in page and "Ks Kh" in page  # alice's own cards in both hands
    assert "7c 2d" not in page and "Qs Qh" not in page
    assert ">120<" in page and ">-10<" in page


def test_the_list_filters_and_names_a_bad_value(client, alice, hands):
    url = reverse("tables:hand_history_list")
    page = page_of(client, alice, url + "?result=won")
    assert f"/hands/{hands[0].pk}/" in page and f"/hands/{hands[1].pk}/" not in page
    page = page_of(client, alice, url + "?min_pot=lots")
    assert "Bad filter value, min_pot" in page


def test_the_replayer_steps_show_cards_only_as_the_viewer_saw_them(client, alice, hands):
    showdown = hands[0]
    page = page_of(client, alice, reverse("tables:hand_replayer", args=[showdown.pk]))
    steps = replay_steps(page)
    first, last = steps[0]["table"], steps[-1]["table"]
    assert [s.get("cards") for s in first["seats"]] == [["As", "Ah"], None, None]
    assert [s.get("cards") for s in last["seats"]] == [["As", "Ah"], None, ["Ks", "Kh"]]
    # bob's mucked cards nowhere on the page (as a card: hashes hold "7c" too)
    assert not re.search(r"(?<![0-9A-Za-z])(7c|2d)(?![0-9A-Za-z])", page)
    assert "alice wins 180" in steps[-1]["label"]
    # Equity over the hands alice saw by the end (hers and carol's), per street.
    assert set(steps[0]["equity"]) == {"0", "2"}
    assert steps[0]["equity"]["0"] > 80
    streets = [s["street"] for s in steps]
    assert streets[0] == "preflop" and "flop" in streets and streets[-1] == "over"


def test_the_replayer_refuses_a_hand_i_was_not_dealt_into_or_still_in_play(
    client, make_user, alice, bob, hands
):
    client.force_login(make_user("dave"))
    assert client.get(reverse("tables:hand_replayer", args=[hands[0].pk])).status_code == 404
    live = friends_table(alice, bob, name="Live")
    deal(live)
    client.force_login(alice)
    hand = live.hands.get()
    assert client.get(reverse("tables:hand_replayer", args=[hand.pk])).status_code == 404


def test_a_folded_hand_replays_without_anyone_elses_cards(client, carol, hands):
    page = page_of(client, carol, reverse("tables:hand_replayer", args=[hands[1].pk]))
    cards = {
        tuple(s["cards"])
        for step in replay_steps(page)
        for s in step["table"]["seats"]
        if s.get("cards")
    }
    assert cards == {("Qs", "Qh")}


def test_the_player_page_shows_stats_and_the_winnings_graph(client, alice, hands):
    page = page_of(client, alice, reverse("tables:player_page", args=["alice"]))
    assert "2 hands, net 110 chips" in page
    assert "<svg" in page and 'class="net"' in page and 'class="ev"' in page
    assert "VPIP" in page and "50.0" in page and "W$SD" in page


def test_another_players_page_counts_only_shared_hands(client, make_user, hands):
    dave = make_user("dave")
    page = page_of(client, dave, reverse("tables:player_page", args=["alice"]))
    assert "0 hands" in page and "<svg" not in page
    client.force_login(dave)
    assert client.get(reverse("tables:player_page", args=["nobody"])).status_code == 404

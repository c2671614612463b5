"""The hand-history API: each caller sees exactly what they saw at the table."""

from __future__ import annotations

import warnings
from datetime import timedelta

import pytest
from django.utils import timezone
from pokerkit import HandHistory
from rest_framework.test import APIClient

import engine
from tables.models import Table
from tests.tables.helpers import deal, friends_table
from tests.tables.recorded import (
    FOLDED_TO_A_RAISE,
    SHOWDOWN_WITH_MUCK,
    record_hand,
    recorded_state,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_redis")]


@pytest.fixture
def table(alice, bob, carol):
    return friends_table(alice, bob, carol, seat_count=3)


@pytest.fixture
def showdown(table):
    return record_hand(table, recorded_state(SHOWDOWN_WITH_MUCK))


@pytest.fixture
def folded(table, showdown):
    return record_hand(
        table, recorded_state(FOLDED_TO_A_RAISE), showdown.started_at + timedelta(minutes=1)
    )


def api_for(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def cards_by_seat(body: dict) -> dict[int, list[str] | None]:
    return {p["seat"]: p["hole_cards"] for p in body["players"]}


def test_a_player_sees_their_own_cards_and_cards_shown_but_not_a_mucked_hand(alice, showdown):
    body = api_for(alice).get(f"/api/hands/{showdown.pk}/").json()
    assert cards_by_seat(body) == {0: ["As", "Ah"], 1: None, 2: ["Ks", "Kh"]}
    assert body["viewer_seat"] == 0 and body["board"] == ["3c", "8d", "9h", "4s", "Jc"]
    assert {p["seat"]: p["net"] for p in body["players"]} == {0: 120, 1: -60, 2: -60}
    assert [p["username"] for p in body["players"]] == ["alice", "bob", "carol"]
    assert body["pots"] == [
        {"index": 0, "amount": 180, "eligible": [0, 1, 2], "winners": [{"seat": 0, "amount": 180}],
         "hand": body["pots"][0]["hand"], "board": 1},
    ]  # fmt: skip
    river = [a for a in body["actions"] if a["street"] == "river"]
    assert [(a["seat"], a["action"], a["total"]) for a in river][2] == (2, "bet", 40)


def test_the_player_who_mucked_still_sees_their_own_cards(bob, showdown):
    body = api_for(bob).get(f"/api/hands/{showdown.pk}/").json()
    assert cards_by_seat(body) == {0: ["As", "Ah"], 1: ["7c", "2d"], 2: ["Ks", "Kh"]}


def test_folded_hands_stay_hidden_from_everyone_else(alice, carol, folded):
    assert cards_by_seat(api_for(alice).get(f"/api/hands/{folded.pk}/").json()) == {
        0: ["Ks", "Kh"], 1: None, 2: None,
    }  # fmt: skip
    assert cards_by_seat(api_for(carol).get(f"/api/hands/{folded.pk}/").json()) == {
        0: None, 1: None, 2: ["Qs", "Qh"],
    }  # fmt: skip


def test_staff_see_every_card(make_user, showdown):
    staff = make_user("sam", is_staff=True)
    body = api_for(staff).get(f"/api/hands/{showdown.pk}/").json()
    assert cards_by_seat(body)[1] == ["7c", "2d"]


def test_a_spectator_or_stranger_gets_a_404_for_the_hand_and_its_texts(make_user, showdown):
    dave = api_for(make_user("dave"))
    for suffix in ("", "phh", "pokerstars"):
        response = dave.get(f"/api/hands/{showdown.pk}/{suffix}")
        assert response.status_code == 404
        assert response.json()["code"] == "not_found" and response.json()["message"]


def test_a_hand_still_in_play_cannot_be_opened_even_by_its_players(alice, bob):
    live = friends_table(alice, bob, name="Live")
    deal(live)
    hand = live.hands.get()
    assert hand.ended_at is None
    assert api_for(alice).get(f"/api/hands/{hand.pk}/").status_code == 404
    assert api_for(alice).get("/api/hands/").json()["results"] == []


def test_another_users_hand_id_is_a_404(make_user, alice, showdown):
    erin, frank = make_user("erin"), make_user("frank")
    other = record_hand(friends_table(erin, frank, name="Other"), _two_handed())
    assert api_for(alice).get(f"/api/hands/{other.pk}/").status_code == 404
    assert api_for(erin).get(f"/api/hands/{other.pk}/").status_code == 200


def _two_handed():
    state = engine.new_hand([500, 500], button=0, small_blind=10, big_blind=20, deck=engine.DECK)
    return engine.apply_action(state, engine.Fold())


def test_the_phh_download_hides_unseen_cards_and_pokerkit_replays_it(alice, showdown):
    response = api_for(alice).get(f"/api/hands/{showdown.pk}/phh")
    assert response.status_code == 200
    text = response.content.decode()
    assert "d dh p1 AsAh" in text and "d dh p2 ????" in text and "7c2d" not in text
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        final = list(HandHistory.loads(text))[-1].stacks
    assert list(final) == [1120, 940, 940]


def test_the_pokerstars_download_deals_only_to_the_viewer(bob, carol, folded):
    text = api_for(carol).get(f"/api/hands/{folded.pk}/pokerstars").content.decode()
    assert "Dealt to carol [Qs Qh]" in text
    assert "Ks Kh" not in text and "7c 2d" not in text
    mine = api_for(bob).get(f"/api/hands/{folded.pk}/pokerstars").content.decode()
    assert "Dealt to bob [7c 2d]" in mine and "Qs Qh" not in mine


def test_the_list_is_my_hands_newest_first_with_my_net(alice, showdown, folded):
    body = api_for(alice).get("/api/hands/").json()
    assert [(h["id"], h["net"]) for h in body["results"]] == [(folded.pk, -10), (showdown.pk, 120)]
    assert body["results"][0]["hole_cards"] == ["Ks", "Kh"]
    assert body["results"][0]["table"] == showdown.table_id and body["results"][0]["number"] == 2


def test_the_list_pages_with_a_cursor(alice, table):
    start = timezone.now() - timedelta(hours=1)
    hands = [
        record_hand(table, recorded_state(FOLDED_TO_A_RAISE), start + timedelta(minutes=i))
        for i in range(5)
    ]
    api = api_for(alice)
    first = api.get("/api/hands/?page_size=2").json()
    second = api.get(first["next"]).json()
    third = api.get(second["next"]).json()
    seen = [h["id"] for page in (first, second, third) for h in page["results"]]
    assert seen == [h.pk for h in reversed(hands)] and third["next"] is None


def test_the_next_link_keeps_the_filters_and_drops_unknown_parameters(alice, folded):
    body = api_for(alice).get("/api/hands/?page_size=1&kind=friends&junk=%3Cx%3E").json()
    query = body["next"].split("?", 1)[1]
    assert "junk" not in query and "kind=friends" in query and "page_size=1" in query
    assert [h["id"] for h in api_for(alice).get(body["next"]).json()["results"]] != []


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("result=won", ["showdown"]),
        ("result=lost", ["folded"]),
        ("showdown=true", ["showdown"]),
        ("showdown=false", ["folded"]),
        ("position=SB", ["showdown", "folded"]),
        ("position=BTN", []),
        ("min_pot=100", ["showdown"]),
        ("kind=friends", ["showdown", "folded"]),
        ("kind=practice", []),
    ],
)
def test_filters_narrow_the_list(alice, showdown, folded, query, expected):
    names = {showdown.pk: "showdown", folded.pk: "folded"}
    body = api_for(alice).get(f"/api/hands/?{query}").json()
    assert sorted(names[h["id"]] for h in body["results"]) == sorted(expected)


def test_the_date_and_table_filters(alice, showdown, folded):
    api = api_for(alice)
    since = (folded.started_at - timedelta(seconds=1)).isoformat().replace("+00:00", "Z")
    assert [h["id"] for h in api.get("/api/hands/", {"since": since}).json()["results"]] == [
        folded.pk
    ]
    assert [h["id"] for h in api.get("/api/hands/", {"until": since}).json()["results"]] == [
        showdown.pk
    ]
    assert len(api.get(f"/api/hands/?table={showdown.table_id}").json()["results"]) == 2
    assert api.get(f"/api/hands/?table={showdown.table_id + 1000}").json()["results"] == []


def test_the_tournament_filter_keeps_the_hands_at_that_tournaments_tables(alice, showdown):
    from tournaments.models import Tournament

    played, other = Tournament.objects.create(buy_in=1), Tournament.objects.create(buy_in=2)
    Table.objects.filter(pk=showdown.table_id).update(tournament=played)
    api = api_for(alice)
    [hand] = api.get(f"/api/hands/?tournament={played.pk}").json()["results"]
    assert hand["id"] == showdown.pk
    assert api.get(f"/api/hands/?tournament={other.pk}").json()["results"] == []


@pytest.mark.parametrize(
    ("query", "parameter"),
    [
        ("kind=poker", "kind"),
        ("position=ZZ", "position"),
        ("min_pot=-5", "min_pot"),
        ("min_pot=lots", "min_pot"),
        ("showdown=maybe", "showdown"),
        ("since=yesterday", "since"),
        ("table=x", "table"),
        ("result=draw", "result"),
        ("since=2026-02-01&until=2026-01-01", "until"),
        ("tournament=x", "tournament"),
        ("tournament=0", "tournament"),
    ],
)
def test_a_bad_filter_value_is_a_400_that_names_it(alice, query, parameter):
    for url in ("/api/hands/?", "/api/players/alice/stats/?", "/api/hands/export?format=phh&"):
        response = api_for(alice).get(url + query)
        assert response.status_code == 400, url
        body = response.json()
        assert body["code"] == "bad_filter" and body["parameters"] == [parameter]
        assert parameter in body["message"]


def test_anonymous_callers_are_refused_everywhere(showdown):
    for url in (
        "/api/hands/",
        f"/api/hands/{showdown.pk}/",
        "/api/tables/",
        "/api/players/alice/stats/",
        f"/api/hands/{showdown.pk}/phh",
        "/api/hands/export?format=phh",
    ):
        response = APIClient().get(url)
        assert response.status_code in (401, 403), url
        assert response.json()["code"] == "not_authenticated"


def test_the_phh_export_streams_every_hand_and_pokerkit_reads_them_back(alice, showdown, folded):
    response = api_for(alice).get("/api/hands/export?format=phh")
    assert response.status_code == 200 and response.streaming
    text = b"".join(response.streaming_content).decode()
    assert "7c2d" not in text and "QsQh" not in text  # bob's muck, carol's fold
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        histories = list(HandHistory.loads_all(text))
    finals = [list(list(h)[-1].stacks) for h in histories]
    assert finals == [[990, 980, 1030], [1120, 940, 940]]  # newest first


def test_the_pokerstars_export_reads_back_in_pokerkit(alice, showdown, folded):
    response = api_for(alice).get("/api/hands/export", {"format": "pokerstars", "result": "won"})
    text = b"".join(response.streaming_content).decode()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (history,) = HandHistory.from_pokerstars(text, error_status=True)
    assert list(list(history)[-1].stacks) == [1120, 940, 940]
    assert "Dealt to alice [As Ah]" in text and "7c 2d" not in text


def test_an_export_without_a_known_format_is_a_400(alice):
    response = api_for(alice).get("/api/hands/export?format=csv")
    assert response.status_code == 400 and response.json()["parameters"] == ["format"]


def test_the_tables_list_shows_tables_i_play_at_and_not_others(make_user, alice, table):
    other = friends_table(make_user("dave"), make_user("erin"), name="Private")
    mine = [t["id"] for t in api_for(alice).get("/api/tables/").json()["results"]]
    assert mine == [table.pk]
    staff = api_for(make_user("sam", is_staff=True)).get("/api/tables/").json()["results"]
    assert sorted(t["id"] for t in staff) == sorted([table.pk, other.pk])


def test_the_hand_endpoints_are_throttled_with_a_json_refusal(alice, showdown, monkeypatch):
    from config.platform.api_throttles import UserThrottle

    monkeypatch.setattr(UserThrottle, "THROTTLE_RATES", {"anon": "60/min", "user": "2/min"})
    api = api_for(alice)
    codes = [api.get(f"/api/hands/{showdown.pk}/").status_code for _ in range(2)]
    over = api.get("/api/hands/")
    assert codes == [200, 200] and over.status_code == 429
    assert over.json()["code"] == "throttled" and over.json()["message"]


def test_hands_turned_up_for_an_all_in_are_seen_by_all_and_carry_their_ev(bob, table):
    # rule14: carol (KsKh) shoves, alice (AsAh) calls all-in, bob folds his big blind.
    hand = record_hand(table, recorded_state("rule14_all_in_hands_face_up_before_the_run_out"))
    body = api_for(bob).get(f"/api/hands/{hand.pk}/").json()
    assert cards_by_seat(body) == {0: ["As", "Ah"], 1: ["7c", "2d"], 2: ["Ks", "Kh"]}
    players = {p["seat"]: p for p in body["players"]}
    aces = engine.equity([engine.cards("AsAh"), engine.cards("KsKh")])[0]
    # One pot of 2020 between the two all-in hands; each put in 1000.
    assert players[0]["allin_ev"] == pytest.approx(aces * 2020 - 1000, abs=0.01)
    assert players[2]["allin_ev"] == pytest.approx((1 - aces) * 2020 - 1000, abs=0.01)
    assert (players[0]["net"], players[1]["net"], players[2]["net"]) == (-1000, -20, 1020)
    assert players[1]["allin_ev"] == -20  # folded: the actual result


def export_queries(user, hands: int, table) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    start = timezone.now() - timedelta(days=1)
    for n in range(hands):
        record_hand(table, recorded_state(SHOWDOWN_WITH_MUCK), start + timedelta(minutes=n))
    with CaptureQueriesContext(connection) as queries:
        response = api_for(user).get("/api/hands/export?format=pokerstars")
        text = b"".join(response.streaming_content).decode()
    assert text.count("PokerStars Hand #") == hands
    return len(queries)


def test_an_export_reads_fifty_hands_in_as_many_queries_as_one(alice, table, make_user):
    one = export_queries(alice, 1, table)
    bob_table = friends_table(make_user("dan"), make_user("eve"), make_user("fay"), seat_count=3)
    dan = bob_table.seats.get(number=0).user
    fifty = export_queries(dan, 50, bob_table)
    assert fifty == one, "the hands are read a batch at a time, not one by one"

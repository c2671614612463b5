"""Player stats: SQL sums over stored facts, figures worked out by hand from two hands.

The hands (tests/engine/hands): rule13, button carol limps, alice (small blind)
completes, bob checks; checked to the river, where carol bets 40 and both call;
alice's aces win 180 (+120, 6 bb), bob mucks, carol shows and loses 60 (-3 bb).
rule07: carol opens to 60, alice and bob fold (alice -10, -0.5 bb; carol +30, 1.5 bb).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from rest_framework.test import APIClient

import engine
from tables.history.serializers import STATS_HELP
from tables.history.stats import RATIOS, counters_by_user, counters_of
from tables.models import HandPlayer
from tests.tables.helpers import act, deal, friends_table, state_of
from tests.tables.recorded import (
    FOLDED_TO_A_RAISE,
    SHOWDOWN_WITH_MUCK,
    record_hand,
    recorded_state,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_redis")]


@pytest.fixture
def hands(alice, bob, carol):
    table = friends_table(alice, bob, carol, seat_count=3)
    first = record_hand(table, recorded_state(SHOWDOWN_WITH_MUCK))
    second = record_hand(
        table, recorded_state(FOLDED_TO_A_RAISE), first.started_at + timedelta(minutes=1)
    )
    return first, second


def stats_of(user, username, query=""):
    api = APIClient()
    api.force_authenticate(user)
    response = api.get(f"/api/players/{username}/stats/{query}")
    assert response.status_code == 200, response.content
    body = response.json()
    return body, {
        name: (s["numerator"], s["denominator"], s["value"]) for name, s in body["stats"].items()
    }


def test_my_own_stats_over_every_hand(alice, hands):
    body, stats = stats_of(alice, "alice")
    assert body["hands"] == 2 and body["net"] == 110
    assert stats["vpip"] == (1, 2, 50.0)  # the completed small blind
    assert stats["pfr"] == (0, 2, 0.0)
    assert stats["three_bet"] == (0, 1, 0.0)  # facing carol's open in rule07
    assert stats["fold_to_three_bet"] == (0, 0, None)
    assert stats["af"] == (0, 1, 0.0) and stats["afq"] == (0, 1, 0.0)  # one river call
    assert stats["cbet"] == (0, 0, None) and stats["fold_to_cbet"] == (0, 0, None)
    assert stats["wtsd"] == (1, 1, 100.0) and stats["wsd"] == (1, 1, 100.0)
    assert stats["wwsf"] == (1, 1, 100.0)
    assert stats["bb_per_100"] == (5.5, 2, 275.0)  # (6 - 0.5) bb over 2 hands
    assert stats["allin_ev_bb_per_100"] == (5.5, 2, 275.0)  # nobody was all-in


def test_every_stat_counted_is_sent_and_documented(alice, hands):
    # The answer's serializer names each stat (so the schema types it): one counted but
    # not named there would vanish from the answer.
    body, _ = stats_of(alice, "alice")
    assert set(body["stats"]) == set(RATIOS) | {"roi", "itm"} == set(STATS_HELP)


def test_another_players_stats_count_only_hands_i_was_dealt_into(make_user, alice, carol, hands):
    dave, erin = make_user("dave"), make_user("erin")
    record_hand(
        friends_table(carol, dave, erin, name="Elsewhere"), recorded_state(FOLDED_TO_A_RAISE)
    )
    body, stats = stats_of(alice, "carol")
    assert body["hands"] == 2 and body["net"] == -30
    assert stats["vpip"] == (2, 2, 100.0) and stats["pfr"] == (1, 2, 50.0)
    assert stats["af"] == (1, 0, None) and stats["afq"] == (1, 1, 100.0)  # the river bet
    assert stats["wsd"] == (0, 1, 0.0) and stats["wwsf"] == (0, 1, 0.0)
    assert stats["bb_per_100"] == (-1.5, 2, -75.0)
    assert stats_of(carol, "carol")[0]["hands"] == 3  # her own: all of them
    assert stats_of(dave, "alice")[0]["hands"] == 0  # never at a table together


def test_stats_take_the_same_filters(alice, hands):
    body, stats = stats_of(alice, "alice", "?result=won")
    assert body["hands"] == 1 and stats["vpip"] == (1, 1, 100.0)


def test_an_unknown_player_is_a_404_with_a_code(alice):
    api = APIClient()
    api.force_authenticate(alice)
    response = api.get("/api/players/nobody/stats/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_running_totals_agree_with_the_sum_over_every_hand(alice, bob, hands):
    from tables.history.filters import finished_rows
    from tables.history.stats import summed_counters, totals_of
    from tests.tables.helpers import act, deal, state_of

    live = friends_table(alice, bob, name="Checked down")
    for _ in range(3):  # hands played through the services, each ending with totals added
        deal(live)
        while not state_of(live).is_over:
            legal = engine.legal_actions(state_of(live))
            act(live, "check" if legal.can_check else "call")
    for member in (alice, bob):
        kept, summed = totals_of(member), summed_counters(finished_rows(member))
        assert kept == pytest.approx(summed), member
    # Unfiltered (the totals) and a filter every hand passes (the rows) agree.
    assert stats_of(alice, "alice")[1] == stats_of(alice, "alice", "?min_pot=0")[1]


def test_a_hands_rows_counted_in_memory_agree_with_the_query(alice, bob, carol, hands):
    live = friends_table(alice, bob, carol, name="Raised about")
    for number in range(4):  # a raise, calls and folds, for counters the fixture lacks
        deal(live)
        raised = False
        while not state_of(live).is_over:
            legal = engine.legal_actions(state_of(live))
            if legal.can_raise and number % 2 and not raised:
                act(live, "raise", legal.min_raise_to)
                raised = True
            else:
                act(live, "check" if legal.can_check else "call" if number else "fold")
    for hand in [*hands, *live.hands.all()]:
        rows = HandPlayer.objects.filter(hand=hand)
        assert counters_of(list(rows)) == counters_by_user(rows), hand

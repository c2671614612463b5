"""A showdown's result stays up a while with the cards that won; each player sees
what their own cards make, and nobody else sees it."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import time_machine
from asgiref.sync import sync_to_async

import engine
from tables import selectors, services
from tests.tables.helpers import act, deal, fresh, friends_table, state_of
from tests.tables.sockets import Client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]


def check_down(table) -> None:
    while not state_of(table).is_over:
        legal = engine.legal_actions(state_of(table))
        act(table, "check" if legal.can_check else "call")


def test_a_showdown_stays_up_at_least_the_showdown_time(alice, bob, settings):
    settings.TABLES_NEXT_HAND_SECONDS = 1.0
    settings.TABLES_SHOWDOWN_SECONDS = 5.0
    table = friends_table(alice, bob)
    deal(table)
    check_down(table)
    ended = fresh(table)
    hand = ended.hands.get(number=ended.hand_number)
    assert ended.next_hand_at is not None and hand.ended_at is not None
    assert (ended.next_hand_at - hand.ended_at).total_seconds() == pytest.approx(5.0, abs=0.01)


def test_an_all_in_run_out_is_held_longer_by_a_pause_for_each_street(alice, bob, carol, settings):
    settings.TABLES_NEXT_HAND_SECONDS = 1.0
    settings.TABLES_SHOWDOWN_SECONDS = 5.0
    settings.TABLES_RUNOUT_STREET_SECONDS = 1.5
    table = friends_table(alice, bob, carol)  # whoever loses the all-in, two play on
    deal(table)
    act(table, "raise", engine.legal_actions(state_of(table)).max_raise_to)
    act(table, "call")
    act(table, "fold")  # two all-in preflop: flop, turn and river are run out
    all_in = fresh(table).wake_at - timedelta(seconds=1.5)
    done = []
    for step in range(1, 5):  # flop, turn, river, then the result (rule 30)
        with time_machine.travel(all_in + timedelta(seconds=1.5 * step), tick=False):
            done.append(services.table_wake(table_id=table.pk, seq=fresh(table).seq))
    assert done == ["runout_reveal"] * 4
    ended = fresh(table)
    hand = ended.hands.get(number=ended.hand_number)
    assert (hand.ended_at - all_in).total_seconds() == pytest.approx(4 * 1.5, abs=0.01)
    held = (ended.next_hand_at - hand.ended_at).total_seconds()
    assert held == pytest.approx(5.0, abs=0.01)


def test_a_hand_won_by_a_fold_is_not_held(alice, bob, settings):
    settings.TABLES_NEXT_HAND_SECONDS = 1.0
    settings.TABLES_SHOWDOWN_SECONDS = 5.0
    table = friends_table(alice, bob)
    deal(table)
    act(table, "fold")
    ended = fresh(table)
    hand = ended.hands.get(number=ended.hand_number)
    assert (ended.next_hand_at - hand.ended_at).total_seconds() == pytest.approx(1.0, abs=0.01)


def test_the_winners_show_the_five_cards_that_won(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    check_down(table)
    view = selectors.table_snapshot(table_id=table.pk, user=None)
    board = view["hand"]["board"]
    for winner in view["hand"]["winners"]:
        shown = view["seats"][winner["seat"]]["cards"]
        assert len(winner["cards"]) == 5 and set(winner["cards"]) <= {*shown, *board}
        value = engine.evaluate([engine.card(c) for c in winner["cards"]])
        assert engine.describe(value) == winner["description"]


async def test_only_the_player_sees_what_their_cards_make(alice, bob, carol):
    table = await sync_to_async(friends_table)(alice, bob)
    clients = [await Client.open(user, table.pk) for user in (alice, bob, carol)]
    await sync_to_async(deal)(table)
    seq = (await sync_to_async(fresh)(table)).seq
    views = [await client.snapshot(seq) for client in clients]
    for number, view in enumerate(views[:2]):
        cards = [engine.card(c) for c in view["seats"][number]["cards"]]
        assert view["your_hand"] == engine.strength(cards)
    assert views[2]["your_hand"] is None, "a spectator holds no cards"
    # Every frame anyone else got: none names another player's hand.
    for number, client in enumerate(clients):
        for text in client.texts:
            table_view = json.loads(text).get("table") or {}
            mine = table_view.get("your_hand")
            if mine is not None:
                own = table_view["seats"][number]["cards"]
                assert number < 2 and mine == engine.strength([engine.card(c) for c in own])
    for client in clients:
        await client.close()

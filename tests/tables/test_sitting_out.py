"""Sitting out at a cash table (rule 29): not dealt in, nothing posted, and back at
the big blind. A tournament's table keeps rule 20 (tests/tournaments/test_play.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

import engine
from tables import services
from tables.errors import NotEnoughPlayers
from tables.models import Seat, Table
from tables.selectors import table_snapshot
from tests.tables.helpers import act, chips_on_table, deal, fresh, friends_table, state_of
from tests.tables.sockets import Client


def fold_to_the_end(table: Table) -> engine.HandState:
    """Everyone folds (checks when free) until the hand is over."""
    while not state_of(table).is_over:
        act(table, "check" if engine.legal_actions(state_of(table)).can_check else "fold")
    return state_of(table)


def seat_of(table: Table, user: Any) -> Seat:
    return Seat.objects.get(table=table, user=user)


def forced_bets(state: engine.HandState, seat: int) -> list[str]:
    return [e.blind for e in state.events if e.kind == "blind_posted" and e.seat == seat]


def deal_until(table: Table, done: Any, hands: int = 8) -> engine.HandState:
    """Deal and fold hands until ``done(state)`` holds for a hand as dealt."""
    for _ in range(hands):
        state = deal(table)
        if done(state):
            return state
        fold_to_the_end(table)
    raise AssertionError(f"not within {hands} hands")


# --- over the socket ------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_database_connections")
async def test_a_player_sitting_out_is_dealt_no_cards_and_posts_no_blinds(alice, bob, carol):
    table = await sync_to_async(friends_table)(alice, bob, carol)
    tabs = [await Client.open(user, table.pk) for user in (alice, bob, carol)]
    await tabs[2].send({"type": "sit_out"})
    seq = (await tabs[2].snapshot(table.seq + 1))["seq"]
    for _ in range(3):  # every role carol would have had: button, small and big blind
        seq = await sync_to_async(services.hand_start)(table_id=table.pk, seq=seq)
        views = [await tab.snapshot(seq) for tab in tabs]
        mine = views[2]
        assert mine["hand"] is not None and not mine["hand"]["is_over"]
        assert not mine["seats"][2]["is_dealt_in"] and mine["seats"][2]["cards"] is None
        assert mine["your_hand"] is None and mine["legal"] is None
        for view in views:
            assert not view["seats"][2]["is_dealt_in"], "the others see carol out too"
            assert not any(e.get("seat") == 2 for e in view["hand"]["log"]), "no blind, no cards"
            assert view["seats"][2]["stack"] == 1500
        await sync_to_async(fold_to_the_end)(table)
        seq = await sync_to_async(lambda: fresh(table).seq)()
        for tab in tabs:
            await tab.snapshot(seq)
    assert (await sync_to_async(seat_of)(table, carol)).stack == 1500
    assert await sync_to_async(chips_on_table)(table) == 4500
    for tab in tabs:
        await tab.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_database_connections")
async def test_a_player_the_clock_marked_away_is_not_dealt_the_next_hand(alice, bob, carol):
    table = await sync_to_async(friends_table)(alice, bob, carol)
    state = await sync_to_async(deal)(table)
    slow = await sync_to_async(Seat.objects.select_related("user").get)(
        table=table, number=state.actor
    )
    tab = await Client.open(slow.user, table.pk)

    def run_out_of_time() -> None:
        past = timezone.now() - timedelta(seconds=1)
        Seat.objects.filter(pk=slow.pk).update(time_bank=0)
        Table.objects.filter(pk=table.pk).update(deadline=past, wake_at=past)
        services.hand_timeout(table_id=table.pk, seq=fresh(table).seq)
        fold_to_the_end(table)

    await sync_to_async(run_out_of_time)()
    seq = await sync_to_async(lambda: fresh(table).seq)()
    seat = (await tab.snapshot(seq))["seats"][slow.number]
    assert seat["is_sitting_out"] and seat["has_timed_out"]
    seq = await sync_to_async(services.hand_start)(table_id=table.pk, seq=seq)
    mine = await tab.snapshot(seq)
    assert not mine["seats"][slow.number]["is_dealt_in"] and mine["your_hand"] is None
    assert not any(e.get("seat") == slow.number for e in mine["hand"]["log"])
    await tab.close()


# --- coming back: wait for the big blind -----------------------------------------


@pytest.mark.django_db
def test_back_after_missing_the_big_blind_a_player_waits_for_it(alice, bob, carol, make_user):
    dave = make_user("dave")
    table = friends_table(alice, bob, carol, dave, seat_count=4)
    deal(table)
    fold_to_the_end(table)
    services.seat_sit_out(table_id=table.pk, user=dave)
    kept = seat_of(table, dave).stack  # after hand 1, where he may have posted a blind
    missed = deal_until(table, lambda s: seat_of(table, dave).has_missed_big_blind)
    assert not missed.is_dealt_in[3] and forced_bets(missed, 3) == []
    fold_to_the_end(table)
    services.seat_sit_in(table_id=table.pk, user=dave)
    seen = table_snapshot(table_id=table.pk, user=alice)["seats"][3]
    assert seen["waits_for_big_blind"] and not seen["is_sitting_out"]
    waited = 0
    while not (state := deal(table)).is_dealt_in[3]:
        waited += 1
        assert forced_bets(state, 3) == [] and seat_of(table, dave).stack == kept
        fold_to_the_end(table)
    assert 0 < waited < 4, "dealt in again within one round, not at once"
    assert state.big_blind_seat == 3 and forced_bets(state, 3) == ["big"], "rule 29"
    assert not table_snapshot(table_id=table.pk, user=dave)["seats"][3]["waits_for_big_blind"]
    fold_to_the_end(table)
    assert chips_on_table(table) == 6000


@pytest.mark.django_db
def test_back_before_the_big_blind_came_round_a_player_is_dealt_in_at_once(alice, bob, carol):
    table = friends_table(alice, bob, carol)
    state = deal(table)
    away = next(n for n in range(3) if n != state.big_blind_seat and n != state.actor)
    user = Seat.objects.get(table=table, number=away).user
    services.seat_sit_out(table_id=table.pk, user=user)
    fold_to_the_end(table)
    services.seat_sit_in(table_id=table.pk, user=user)
    assert deal(table).is_dealt_in[away]


@pytest.mark.django_db
def test_with_nobody_else_to_play_a_returning_player_is_dealt_in_at_once(alice, bob, carol):
    table = friends_table(alice, bob, carol)
    services.seat_sit_out(table_id=table.pk, user=carol)
    deal_until(table, lambda s: seat_of(table, carol).has_missed_big_blind)
    fold_to_the_end(table)
    services.seat_sit_out(table_id=table.pk, user=bob)
    with pytest.raises(NotEnoughPlayers):
        deal(table)
    services.seat_sit_in(table_id=table.pk, user=carol)
    assert fresh(table).next_hand_at is not None, "alice and carol play heads-up"
    state = deal(table)
    assert state.is_dealt_in[2] and state.is_dealt_in[0] and not state.is_dealt_in[1]


@pytest.mark.django_db
def test_sitting_out_in_a_hand_folds_you_in_it_and_deals_you_out_of_the_next(alice, bob, carol):
    table = friends_table(alice, bob, carol)
    deal(table)
    services.seat_sit_out(table_id=table.pk, user=carol)
    assert state_of(table).is_dealt_in[2], "the hand in play keeps its players"
    over = fold_to_the_end(table)
    moves = [e.action for e in over.events if e.kind == "player_acted" and e.seat == 2]
    assert set(moves) <= {"fold", "check"}, "played for her: checked or folded (rule 20)"
    assert not deal(table).is_dealt_in[2]


@pytest.mark.django_db
def test_a_table_where_everyone_else_sits_out_waits_for_them(alice, bob):
    table = friends_table(alice, bob)
    services.seat_sit_out(table_id=table.pk, user=bob)
    assert table_snapshot(table_id=table.pk, user=alice)["waiting_for"] == (
        "Waiting for bob to come back"
    )
    with pytest.raises(NotEnoughPlayers):
        deal(table)


@pytest.mark.django_db
def test_back_in_a_heads_up_game_the_button_does_not_sit_on_the_big_blind(alice, bob, carol):
    table = friends_table(alice, bob, carol, seat_count=3)
    deal_until(table, lambda s: s.big_blind_seat == 2)
    fold_to_the_end(table)
    services.seat_sit_out(table_id=table.pk, user=carol)
    assert not deal(table).is_dealt_in[2], "alice and bob heads-up"
    fold_to_the_end(table)
    services.seat_sit_in(table_id=table.pk, user=carol)
    state = deal(table)  # the big blind went from carol to seat 0, past nobody
    assert state.is_dealt_in[2], "carol missed no big blind: in at once"
    assert (state.button, state.small_blind_seat, state.big_blind_seat) == (2, 0, 1)
    assert forced_bets(state, 1) == ["big"] and forced_bets(state, 0) == ["small"]

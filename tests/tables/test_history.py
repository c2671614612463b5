"""Hand history rows: what a tracker reads, written with the hand's last action."""

from __future__ import annotations

import pytest
from django.utils import timezone

import engine
from tables.history.record import END_FIELDS, hand_end, hand_new
from tables.models import Hand, HandPlayer
from tests.tables.helpers import act, deal, friends_table, state_of
from tests.tables.recorded import SHOWDOWN_WITH_MUCK, recorded_state

pytestmark = pytest.mark.django_db


def facts_by_seat(table) -> dict[int, HandPlayer]:
    hand = Hand.objects.get(table=table, number=1)
    return {p.seat: p for p in HandPlayer.objects.filter(hand=hand)}


def test_a_raise_a_three_bet_and_a_fold_are_recorded_as_a_tracker_counts_them(alice, bob, carol):
    table = friends_table(alice, bob, carol)
    state = deal(table)
    opener = state.actor  # three-handed the button acts first before the flop
    act(table, "raise", 60)
    three_bettor = state_of(table).actor
    act(table, "raise", 180)
    folder = state_of(table).actor
    act(table, "fold")
    assert state_of(table).actor == opener
    act(table, "call")
    while not state_of(table).is_over:
        act(table, "check")

    seats = facts_by_seat(table)
    assert sorted(seats) == [0, 1, 2]
    first, second, third = seats[opener], seats[three_bettor], seats[folder]
    assert (first.vpip, first.pfr, first.three_bet) == (True, True, False)
    assert (second.vpip, second.pfr, second.three_bet, second.could_three_bet) == (
        True,
        True,
        True,
        True,
    )
    assert (third.vpip, third.pfr, third.could_three_bet) == (False, False, False)
    assert first.saw_flop and second.saw_flop and not third.saw_flop
    assert first.went_to_showdown and second.went_to_showdown and not third.went_to_showdown
    assert first.won_at_showdown != second.won_at_showdown or first.net == second.net
    assert third.net == -(state.big_blind if third.is_big_blind else 0) - (
        state.small_blind if third.is_small_blind else 0
    )
    assert sum(p.net for p in seats.values()) == 0


def test_the_hand_keeps_its_log_board_pots_and_a_phh_that_replays(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    while not state_of(table).is_over:
        legal = engine.legal_actions(state_of(table))
        act(table, "check" if legal.can_check else "call")
    hand = Hand.objects.get(table=table, number=1)
    replayed = engine.replay([engine.event_from_dict(e) for e in hand.events])
    assert replayed.is_over and list(replayed.stacks) == hand.final_stacks
    assert hand.board == [engine.card_str(c) for c in replayed.board]
    assert sum(p["amount"] for p in hand.pots) == 40
    assert list(engine.from_phh(hand.phh).stacks) == hand.final_stacks
    assert "alice" in hand.phh and "bob" in hand.phh
    cards = {p.seat: p.hole_cards for p in hand.players.all()}
    assert all(len(c) == 2 for c in cards.values())


def test_a_hands_end_saves_every_column_it_fills_in(alice, bob, carol):
    table = friends_table(alice, bob, carol, seat_count=3)
    state = recorded_state(SHOWDOWN_WITH_MUCK)
    table.hand_number = 1
    begun, ended = hand_new(table, state, timezone.now()), hand_new(table, state, timezone.now())
    ended.started_at = begun.started_at
    seats = {seat.number: seat for seat in table.seats.all()}
    hand_end(ended, state, seats, ended_at=timezone.now(), phh_fields={}, with_allin_ev=False)
    filled = {
        field.name
        for field in Hand._meta.concrete_fields
        if getattr(begun, field.attname) != getattr(ended, field.attname)
    }
    assert filled and filled <= set(END_FIELDS)

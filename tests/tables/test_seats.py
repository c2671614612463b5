"""Taking seats, leaving, sitting out and coming back (rule 29: test_sitting_out.py)."""

from __future__ import annotations

import pytest

import engine
from tables import services
from tables.errors import AlreadySeated, BadSeat, NotEnoughPlayers, NotSeated, SeatTaken
from tables.models import Hand, Seat
from tables.selectors import table_snapshot
from tests.tables.helpers import act, deal, fresh, friends_table, state_of

pytestmark = pytest.mark.django_db


def test_a_seat_comes_with_the_starting_stack(alice):
    table = services.table_create(owner=alice, name="t", starting_stack=2000, seat_count=3)
    services.seat_take(table_id=table.pk, user=alice, seat=2)
    seat = Seat.objects.get(table=table)
    assert (seat.number, seat.stack, seat.time_bank) == (2, 2000, 30.0)


def test_seats_are_refused_when_taken_missing_or_doubled(alice, bob):
    table = friends_table(alice, seat_count=2)
    with pytest.raises(SeatTaken):
        services.seat_take(table_id=table.pk, user=bob, seat=0)
    with pytest.raises(BadSeat):
        services.seat_take(table_id=table.pk, user=bob, seat=2)
    with pytest.raises(AlreadySeated):
        services.seat_take(table_id=table.pk, user=alice, seat=1)
    with pytest.raises(NotSeated):
        services.seat_sit_out(table_id=table.pk, user=bob)


def test_sitting_out_on_your_turn_folds_you_at_once(alice, bob):
    table = friends_table(alice, bob)
    state = deal(table)
    actor = Seat.objects.get(table=table, number=state.actor)
    services.seat_sit_out(table_id=table.pk, user=actor.user)
    state = state_of(table)
    assert state.is_over and state.has_folded[actor.number]


def test_a_hand_needs_two_players_who_are_not_sitting_out(alice, bob):
    table = friends_table(alice, bob)
    services.seat_sit_out(table_id=table.pk, user=bob)
    assert fresh(table).next_hand_at is None
    with pytest.raises(NotEnoughPlayers):
        deal(table)
    services.seat_sit_in(table_id=table.pk, user=bob)
    assert fresh(table).next_hand_at is not None
    assert not deal(table).is_over


def test_leaving_in_a_hand_folds_on_your_turn_and_frees_the_seat_after(alice, bob, carol):
    table = friends_table(alice, bob, carol)
    state = deal(table)
    waiting = next(n for n in state.players if n != state.actor)
    leaver = Seat.objects.get(table=table, number=waiting)
    services.seat_leave(table_id=table.pk, user=leaver.user)
    assert Seat.objects.filter(pk=leaver.pk).exists(), "seated until the hand ends"
    while not state_of(table).is_over:
        act(table, "call" if not engine.legal_actions(state_of(table)).can_check else "check")
    assert not Seat.objects.filter(pk=leaver.pk).exists()
    hand = Hand.objects.get(table=table, number=1)
    assert hand.players.filter(seat=waiting).exists(), "their part of the hand is recorded"


def test_leaving_between_hands_frees_the_seat_at_once(alice, bob):
    table = friends_table(alice, bob)
    services.seat_leave(table_id=table.pk, user=bob)
    assert list(Seat.objects.filter(table=table).values_list("user__username", flat=True)) == [
        "alice"
    ]
    assert fresh(table).next_hand_at is None


def test_someone_sitting_down_mid_hand_waits_for_the_next_and_sees_no_cards(alice, bob, carol):
    table = friends_table(alice, bob, seat_count=3)
    deal(table)
    services.seat_take(table_id=table.pk, user=carol, seat=2)
    view = table_snapshot(table_id=table.pk, user=carol)
    assert view["your_seat"] == 2
    assert not view["seats"][2]["is_dealt_in"] and view["seats"][2]["cards"] is None
    assert all(s["cards"] is None for s in view["seats"])
    assert view["legal"] is None


def test_taking_the_seat_of_someone_who_left_shows_none_of_their_cards(alice, bob, carol):
    table = friends_table(alice, bob)
    state = deal(table)
    bob_seat = Seat.objects.get(table=table, user=bob).number
    bob_cards = [engine.card_str(c) for c in state.hole_cards(bob_seat)]
    act(table, "fold")
    services.seat_leave(table_id=table.pk, user=bob)
    services.seat_take(table_id=table.pk, user=carol, seat=bob_seat)

    view = table_snapshot(table_id=table.pk, user=carol)
    assert view["hand"]["is_over"] and view["your_seat"] == bob_seat
    assert view["seats"][bob_seat]["cards"] is None
    # The deck's commitment and the cut are hex, where "5d" or "8c" can turn up by chance.
    shown = str({key: value for key, value in view.items() if key not in ("commitment", "cut")})
    assert not any(card in shown for card in bob_cards)

"""Playing hands through the services: dealing, acting, history, positions."""

import pytest
from django.utils import timezone

import engine
from tables import services
from tables.errors import NotSeated, NotYourTurn, StaleDecision
from tables.models import Hand, HandPlayer, Seat
from tests.tables.helpers import (
    act,
    chips_on_table,
    deal,
    decision_of,
    fresh,
    friends_table,
    state_of,
)

pytestmark = pytest.mark.django_db


def play_to_showdown(table) -> None:
    """Call or check every decision until the hand ends."""
    while not state_of(table).is_over:
        legal = engine.legal_actions(state_of(table))
        act(table, "check" if legal.can_check else "call")


def test_a_hand_checked_down_is_paid_out_and_recorded(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    play_to_showdown(table)

    hand = Hand.objects.get(table=table, number=1)
    assert hand.is_over
    assert len(hand.board) == 5
    assert "variant = 'NT'" in hand.phh or 'variant = "NT"' in hand.phh
    players = list(HandPlayer.objects.filter(hand=hand))
    assert sorted(p.name for p in players) == ["alice", "bob"]
    assert sum(p.net for p in players) == 0
    assert all(p.went_to_showdown and p.saw_flop for p in players)
    assert any(p.won_at_showdown for p in players)
    stacks = {s.user.username: s.stack for s in Seat.objects.filter(table=table)}
    assert stacks == {p.name: p.final_stack for p in players}
    assert sum(stacks.values()) == 3000


def test_a_fold_ends_the_hand_without_a_showdown(alice, bob):
    table = friends_table(alice, bob)
    state = deal(table)
    small_blind = state.small_blind_seat
    act(table, "fold")  # heads-up the button posts the small blind and acts first

    hand = Hand.objects.get(table=table, number=1)
    folder = HandPlayer.objects.get(hand=hand, seat=small_blind)
    winner = HandPlayer.objects.exclude(seat=small_blind).get(hand=hand)
    assert folder.net == -10 and winner.net == 10
    assert not folder.went_to_showdown and not winner.went_to_showdown
    assert not folder.was_shown and not winner.was_shown
    assert winner.won_chips and not winner.won_at_showdown


def test_the_hand_row_exists_while_the_hand_is_played(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    hand = Hand.objects.get(table=table, number=1)
    assert not hand.is_over
    assert hand.events[0]["kind"] == "hand_started"
    assert not HandPlayer.objects.filter(hand=hand).exists()


def test_a_raise_and_a_call_move_the_chips(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    act(table, "raise", 60)
    act(table, "call")
    state = state_of(table)
    assert state.street == "flop"
    assert sum(p.amount for p in state.pots) == 120
    assert chips_on_table(table) == 3000


def test_an_action_answering_a_decision_already_gone_is_refused_and_changes_nothing(
    alice, bob, carol
):
    table = friends_table(alice, bob, carol)
    deal(table)
    gone = decision_of(table)
    act(table, "call")
    before = fresh(table)
    actor = Seat.objects.get(table=table, number=state_of(table).actor).user
    with pytest.raises(StaleDecision, match="moved on"):
        services.hand_act(table_id=table.pk, user=actor, action="call", decision=gone)
    after = fresh(table)
    assert (after.seq, after.hand_events) == (before.seq, before.hand_events)


def test_an_action_in_flight_while_another_player_sits_out_still_applies(alice, bob, carol):
    table = friends_table(alice, bob, carol)
    deal(table)
    decision = decision_of(table)
    actor_seat = state_of(table).actor
    actor = Seat.objects.get(table=table, number=actor_seat).user
    bystander = Seat.objects.exclude(number=actor_seat).filter(table=table).first().user
    seq_when_sent = fresh(table).seq
    services.seat_sit_out(table_id=table.pk, user=bystander)  # the table's seq moves on
    assert fresh(table).seq > seq_when_sent

    services.hand_act(table_id=table.pk, user=actor, action="call", decision=decision)

    acted = [e for e in state_of(table).events if e.kind == "player_acted"]
    assert (acted[0].seat, acted[0].action) == (actor_seat, "call")


def test_acting_out_of_turn_or_unseated_is_refused(alice, bob, carol):
    table = friends_table(alice, bob)
    deal(table)
    table = fresh(table)
    waiting = Seat.objects.exclude(number=state_of(table).actor).get(table=table).user
    decision = decision_of(table)
    with pytest.raises(NotYourTurn):
        services.hand_act(table_id=table.pk, user=waiting, action="call", decision=decision)
    with pytest.raises(NotSeated):
        services.hand_act(table_id=table.pk, user=carol, action="call", decision=decision)
    assert fresh(table).seq == table.seq


def test_the_big_blind_moves_one_seat_each_hand(alice, bob, carol):
    table = friends_table(alice, bob, carol)
    big_blinds = []
    for _ in range(4):
        state = deal(table)
        big_blinds.append(state.big_blind_seat)
        while not state_of(table).is_over:
            act(table, "fold")
    assert [(b - big_blinds[0]) % 3 for b in big_blinds] == [0, 1, 2, 0]


def test_the_next_hand_is_due_once_a_hand_ends(alice, bob, settings):
    settings.TABLES_NEXT_HAND_SECONDS = 3.0
    table = friends_table(alice, bob)
    assert fresh(table).next_hand_at is not None, "two players sat: a hand is due"
    deal(table)
    assert fresh(table).next_hand_at is None
    act(table, "fold")
    table = fresh(table)
    assert table.next_hand_at is not None
    assert table.wake_at == table.next_hand_at
    assert 0 < (table.next_hand_at - timezone.now()).total_seconds() <= 3


def test_a_player_who_busts_stays_seated_with_nothing_and_may_leave(alice, bob):
    table = friends_table(alice, bob, starting_stack=100, small_blind=10, big_blind=20)
    for _ in range(50):  # all-in every hand until someone busts (ties split the pot)
        deal(table)
        while not state_of(table).is_over:
            legal = engine.legal_actions(state_of(table))
            if legal.max_raise_to is not None:
                act(table, "raise", legal.max_raise_to)
            else:
                act(table, "call")
        if 0 in {s.stack for s in Seat.objects.filter(table=table)}:
            break
    busted = Seat.objects.get(table=table, stack=0)
    assert Seat.objects.get(table=table, stack=200)
    assert fresh(table).next_hand_at is None, "one player with chips cannot play"
    services.seat_leave(table_id=table.pk, user=busted.user)
    assert Seat.objects.filter(table=table).count() == 1

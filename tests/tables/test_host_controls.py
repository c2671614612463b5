"""What the host's controls do to play: pause holds the clock and the next deal,
blinds wait for the next hand, a removal cashes out, approvals wait for the host."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

import engine
from tables import services
from tables.errors import NotLeaving, TablePaused
from tables.models import ChipMovement, Seat, SeatRequest
from tests.tables.helpers import act, chips_on_table, deal, fresh, friends_table, state_of

pytestmark = pytest.mark.django_db(transaction=True)


def finish_the_hand(table):
    while not state_of(table).is_over:
        legal = engine.legal_actions(state_of(table))
        act(table, "check" if legal.can_check else "call")


def ledger_balance(table) -> int:
    """Chips bought in less chips cashed out: what must be on the table."""
    total = 0
    for movement in ChipMovement.objects.filter(table=table):
        total += -movement.amount if movement.kind == "cash_out" else movement.amount
    return total


def test_a_pause_during_a_hand_holds_the_clock_and_deals_no_next_hand(alice, bob):
    table = friends_table(alice, bob, action_seconds=20)
    deal(table)
    start = timezone.now()
    with time_machine.travel(start + timedelta(seconds=5), tick=False):
        services.table_pause(table_id=table.pk, user=alice)
    paused = fresh(table)
    assert paused.deadline is None and paused.wake_at is None
    assert paused.clock_left == pytest.approx(15, abs=1)
    with time_machine.travel(start + timedelta(minutes=10), tick=False):
        assert not services.hand_timeout(table_id=table.pk, seq=paused.seq)
        finish_the_hand(table)  # players may still play the hand out
        over = fresh(table)
        assert over.next_hand_at is None and over.wake_at is None
        with pytest.raises(TablePaused):
            services.hand_start(table_id=table.pk, seq=over.seq)
        services.table_resume(table_id=table.pk, user=alice)
    resumed = fresh(table)
    assert not resumed.is_paused and resumed.wake_at is not None, "the next hand is due again"


def test_resuming_gives_back_what_was_left_on_the_clock(alice, bob):
    table = friends_table(alice, bob, action_seconds=20)
    deal(table)
    start = timezone.now()
    with time_machine.travel(start + timedelta(seconds=8), tick=False):
        services.table_pause(table_id=table.pk, user=alice)
    later = start + timedelta(minutes=3)
    with time_machine.travel(later, tick=False):
        services.table_resume(table_id=table.pk, user=alice)
    deadline = fresh(table).deadline
    assert deadline is not None
    assert (deadline - later).total_seconds() == pytest.approx(12, abs=1)


def test_new_blinds_start_with_the_next_hand(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    services.table_set_blinds(table_id=table.pk, user=alice, small_blind=25, big_blind=50, ante=5)
    assert state_of(table).big_blind == 20, "the hand in play keeps its blinds"
    finish_the_hand(table)
    state = deal(table)
    assert (state.small_blind, state.big_blind, state.ante) == (25, 50, 5)
    assert fresh(table).next_big_blind is None


def test_a_player_removed_during_a_hand_leaves_after_it_with_a_cash_out(alice, bob, carol):
    table = friends_table(alice, bob, carol)
    deal(table)
    services.seat_remove(table_id=table.pk, user=alice, seat=2)
    removed = Seat.objects.get(table=table, user=carol)
    assert removed.is_leaving and removed.is_removed
    with pytest.raises(NotLeaving):
        services.seat_stay(table_id=table.pk, user=carol)
    finish_the_hand(table)
    assert not Seat.objects.filter(table=table, user=carol).exists()
    cash_out = ChipMovement.objects.get(table=table, user=carol, kind="cash_out")
    assert cash_out.amount == state_of(table).stacks[2]
    assert ledger_balance(table) == chips_on_table(table)


def test_a_player_removed_between_hands_leaves_at_once(alice, bob, carol):
    table = friends_table(alice, bob, carol, starting_stack=700)
    services.seat_remove(table_id=table.pk, user=alice, seat=1)
    assert not Seat.objects.filter(table=table, user=bob).exists()
    assert ChipMovement.objects.get(table=table, user=bob, kind="cash_out").amount == 700
    assert ledger_balance(table) == chips_on_table(table)


def test_a_rebuy_waits_for_the_host_when_the_host_approves_them(alice, bob):
    table = friends_table(alice, bob, starting_stack=400)
    services.table_set_approvals(table_id=table.pk, user=alice, rebuys=True)
    Seat.objects.filter(table=table, user=bob).update(stack=0)
    Seat.objects.filter(table=table, user=alice).update(stack=800)
    services.seat_rebuy(table_id=table.pk, user=bob)
    asking = Seat.objects.get(table=table, user=bob)
    assert asking.wants_rebuy and asking.stack == 0
    assert not ChipMovement.objects.filter(kind="rebuy").exists()
    services.rebuy_decide(table_id=table.pk, user=alice, seat=1, approve=True)
    rebought = Seat.objects.get(table=table, user=bob)
    assert rebought.stack == 400 and not rebought.wants_rebuy
    assert ChipMovement.objects.get(kind="rebuy").amount == 400
    assert ledger_balance(table) == chips_on_table(table)


def test_a_refused_rebuy_gives_no_chips(alice, bob):
    table = friends_table(alice, bob, starting_stack=400)
    services.table_set_approvals(table_id=table.pk, user=alice, rebuys=True)
    Seat.objects.filter(table=table, user=bob).update(stack=0)
    services.seat_rebuy(table_id=table.pk, user=bob)
    services.rebuy_decide(table_id=table.pk, user=alice, seat=1, approve=False)
    refused = Seat.objects.get(table=table, user=bob)
    assert refused.stack == 0 and not refused.wants_rebuy


def test_a_sit_down_waits_for_the_host_when_the_host_approves_them(alice, bob, carol):
    table = friends_table(alice, bob)
    services.table_set_approvals(table_id=table.pk, user=alice, seating=True)
    services.seat_take(table_id=table.pk, user=carol, seat=3)
    assert not Seat.objects.filter(table=table, user=carol).exists()
    request = SeatRequest.objects.get(table=table, user=carol)
    assert request.number == 3
    services.seat_request_decide(table_id=table.pk, user=alice, request=request.pk, approve=True)
    assert Seat.objects.get(table=table, user=carol).number == 3
    assert not SeatRequest.objects.exists()
    assert ChipMovement.objects.filter(user=carol, kind="buy_in").count() == 1


def test_switching_seat_approval_off_drops_the_waiting_requests(alice, bob, carol):
    table = friends_table(alice, bob)
    services.table_set_approvals(table_id=table.pk, user=alice, seating=True)
    services.seat_take(table_id=table.pk, user=carol, seat=3)
    services.table_set_approvals(table_id=table.pk, user=alice, seating=False)
    assert not SeatRequest.objects.exists()
    services.seat_take(table_id=table.pk, user=carol, seat=3)
    assert Seat.objects.get(table=table, user=carol).number == 3

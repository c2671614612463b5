"""An all-in's EV is filled in after the hand's transaction, not while the table waits."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Sum
from rest_framework.test import APIClient

import engine
from tables import tasks
from tables.history.allin_ev import allin_ev_fill
from tables.history.facts import hand_facts
from tables.models import Hand, HandPlayer, PlayerTotals
from tests.support import wait_for
from tests.tables.helpers import act, deal, fresh, friends_table, state_of


def all_in_hand(*players, worker_deals: bool = False) -> Hand:
    """Heads-up: the first to act shoves, the other calls; the board runs out."""
    table = friends_table(*players)
    if worker_deals:  # the table's wake task deals the first hand
        wait_for(lambda: fresh(table).hand_number == 1)
    else:
        deal(table)
    act(table, "raise", engine.legal_actions(state_of(table)).max_raise_to)
    act(table, "call")
    hand = Hand.objects.get(table=table, number=1)
    assert hand.is_over
    return hand


def expected_ev(hand: Hand) -> dict[int, float]:
    state = engine.replay([engine.event_from_dict(e) for e in hand.events])
    return {seat: facts["allin_ev"] for seat, facts in hand_facts(state).items()}


def stored(hand: Hand) -> dict[int, tuple[float, bool]]:
    rows = HandPlayer.objects.filter(hand=hand)
    return {row.seat: (row.allin_ev, row.is_allin_ev) for row in rows}


def totals_agree_with_rows(*users) -> bool:
    for user in users:
        rows = HandPlayer.objects.filter(user=user).aggregate(ev=Sum("allin_ev_bb"))["ev"]
        if PlayerTotals.objects.get(user=user).allin_ev_bb != pytest.approx(rows):
            return False
    return True


@pytest.mark.django_db
def test_the_hand_ends_with_its_actual_result_and_the_ev_is_filled_in_after(alice, bob):
    hand = all_in_hand(alice, bob)

    assert hand.allin_ev_pending
    nets = dict(HandPlayer.objects.filter(hand=hand).values_list("seat", "net"))
    assert stored(hand) == {seat: (float(net), False) for seat, net in nets.items()}
    stats = APIClient()
    stats.force_authenticate(alice)
    before = stats.get("/api/players/alice/stats/").json()["stats"]
    assert before["allin_ev_bb_per_100"] == before["bb_per_100"], "the actual result meanwhile"

    assert allin_ev_fill(hand_id=hand.pk) is True

    ev = expected_ev(hand)
    assert stored(hand) == {seat: (pytest.approx(ev[seat]), True) for seat in ev}
    assert sum(ev.values()) == pytest.approx(0.0), "what one expects, the other gives up"
    assert not Hand.objects.get(pk=hand.pk).allin_ev_pending
    assert totals_agree_with_rows(alice, bob), "the running totals moved by the difference"
    assert allin_ev_fill(hand_id=hand.pk) is False, "filled once only"
    assert totals_agree_with_rows(alice, bob)


@pytest.mark.django_db
def test_a_hand_with_no_all_in_run_out_is_never_pending(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    act(table, "fold")
    hand = Hand.objects.get(table=table, number=1)
    assert hand.is_over and not hand.allin_ev_pending
    assert allin_ev_fill(hand_id=hand.pk) is False


@pytest.mark.django_db
def test_the_sweep_fills_in_a_hand_whose_task_was_lost(alice, bob):
    hand = all_in_hand(alice, bob)  # no worker: its task is never run
    Hand.objects.filter(pk=hand.pk).update(ended_at=hand.ended_at - timedelta(minutes=1))

    tasks.sweep()

    assert not Hand.objects.get(pk=hand.pk).allin_ev_pending
    ev = expected_ev(hand)
    assert stored(hand) == {seat: (pytest.approx(ev[seat]), True) for seat in ev}


@pytest.mark.django_db(transaction=True)
def test_the_task_queued_after_commit_fills_it_in_through_the_worker(celery_worker, alice, bob):
    hand = all_in_hand(alice, bob, worker_deals=True)

    wait_for(lambda: not Hand.objects.get(pk=hand.pk).allin_ev_pending)

    ev = expected_ev(hand)
    assert stored(hand) == {seat: (pytest.approx(ev[seat]), True) for seat in ev}
    assert totals_agree_with_rows(alice, bob)


def test_the_benchmark_times_both_ways_side_by_side():
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("bench_allin_ev", "--hands", "2", stdout=out)
    lines = out.getvalue().splitlines()
    assert [line.split(",")[0] for line in lines] == [
        "2-way preflop all-in",
        "6-way preflop all-in",
    ]
    assert all("with the EV" in line and "without" in line for line in lines)

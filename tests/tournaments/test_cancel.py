"""Cancelling a tournament gives back what is left of its pool, shared by what each
entry is owed (rule 31): prizes, deal amounts and bounties already paid stay paid,
and after every path the tournament's ledger rows sum to zero and no point is made."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

import engine
from accounts.models import PointsEntry
from accounts.points import points_balance
from tables import services as table_services
from tables.models import Seat, Table
from tables.play import hand_state
from tests.support.tournaments import registered, scheduled, started
from tests.tables.helpers import decision_of
from tests.tournaments.helpers import balance_total, members, moved_for, register, sng
from tournaments import services
from tournaments.models import Entry, Tournament
from tournaments.services.results import eliminate

pytestmark = pytest.mark.django_db


def scheduled_and_started(make_user: Any, players: int, **settings: Any) -> Tournament:
    options = {"buy_in": 100, "seats_per_table": 6, **settings}
    return started(registered(scheduled(**options), members(make_user, players)))


def knock_out(tournament: Tournament, busted: Entry, by: Entry | None = None) -> None:
    """``busted`` goes out of the tournament now (by ``by``, in a knockout), as the
    hand that left them without chips would put them out."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        busted.refresh_from_db()
        busted.chips_at_elimination = 500
        busted.knocked_out_by = [[by.pk, 1500]] if by is not None else None
        still_in = list(locked.entries.filter(place=None))
        eliminate(locked, [busted], still_in, None, timezone.now())


def entries_of(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.select_related("user").order_by("pk"))


def cancel(tournament: Tournament) -> Tournament:
    services.tournament_cancel(tournament_id=tournament.pk)
    return Tournament.objects.get(pk=tournament.pk)


def test_cancelling_a_running_sng_gives_every_buy_in_back(make_user):
    players = members(make_user, 6)

    cancelled = cancel(register(sng(buy_in=100), players))

    assert cancelled.status == "cancelled" and cancelled.prize_pool == 0
    assert [points_balance(user=p) for p in players] == [10_000] * 6
    assert moved_for(cancelled) == 0 and balance_total() == 6 * 10_000


def test_cancelling_after_a_bounty_was_paid_takes_it_out_of_the_knockers_refund(make_user):
    tournament = scheduled_and_started(make_user, 4, bounty=40)
    busted, knocker, *_ = entries_of(tournament)
    knock_out(tournament, busted, by=knocker)
    assert points_balance(user=knocker.user) == 10_000 - 100 + 40

    cancelled = cancel(tournament)

    # the knocker put in 100 and was paid 40: 60 back; everyone else their 100
    refunds = PointsEntry.objects.filter(tournament=cancelled, reason="refund")
    assert sorted(refunds.values_list("amount", flat=True)) == [60, 100, 100, 100]
    assert [points_balance(user=e.user) for e in entries_of(cancelled)] == [10_000] * 4
    assert moved_for(cancelled) == 0 and balance_total() == 4 * 10_000  # was +40


def test_cancelling_after_a_prize_was_paid_shares_the_rest_by_what_each_is_owed(make_user):
    tournament = scheduled_and_started(make_user, 6, payout_percentages=[50, 30, 20])
    sixth, fifth, fourth, third, *still_in = entries_of(tournament)
    for entry in (sixth, fifth, fourth, third):
        knock_out(tournament, entry)
    third.refresh_from_db()
    assert (third.place, third.prize) == (3, 120)  # 20% of 600: more than the 100 paid

    cancelled = cancel(tournament)

    # 480 left, owed 100 each by the five not paid: 96 each, the third keeps the 120
    assert points_balance(user=third.user) == 10_000 - 100 + 120
    for entry in (sixth, fifth, fourth, *still_in):
        assert points_balance(user=entry.user) == 10_000 - 100 + 96
    assert moved_for(cancelled) == 0 and balance_total() == 6 * 10_000  # was +120


def test_cancelling_after_a_deal_shares_the_points_kept_for_the_winner(make_user):
    tournament = scheduled_and_started(make_user, 3, payout_percentages=[50, 30, 20])
    at = Table.objects.get(tournament=tournament)
    finish_the_hand(at)
    seats = list(Seat.objects.filter(table=at).select_related("user").order_by("number"))
    shares = dict(zip([s.number for s in seats], [130, 80, 50], strict=True))
    table_services.deal_propose(
        table_id=at.pk, user=seats[0].user, method="custom", amounts=shares, kept_for_winner=40
    )
    for seat in seats[1:]:
        table_services.deal_answer(table_id=at.pk, user=seat.user, accept=True)
    assert Tournament.objects.get(pk=tournament.pk).status == "running"  # plays on for 40

    cancelled = cancel(tournament)

    # the 40 kept back goes to those owed (100 - 80 = 20 and 100 - 50 = 50) by
    # 20:50: 11.43 and 28.57, the left-over point to the larger fraction
    balances = [points_balance(user=s.user) for s in seats]
    assert balances == [10_000 - 100 + 130, 10_000 - 100 + 80 + 11, 10_000 - 100 + 50 + 29]
    assert moved_for(cancelled) == 0 and balance_total() == 3 * 10_000  # was +260


def test_cancelling_after_rebuys_and_an_add_on_gives_them_back(make_user):
    rebuys = {"rebuy_levels": 2, "max_rebuys": 2, "addon_chips": 3000, "addon_price": 50}
    tournament = scheduled_and_started(make_user, 3, **rebuys)
    seats = list(Seat.objects.filter(table__tournament=tournament).select_related("user"))
    table_services.seat_rebuy(table_id=seats[0].table_id, user=seats[0].user)
    Tournament.objects.filter(pk=tournament.pk).update(  # the add-on's level
        started_at=timezone.now() - timedelta(seconds=121), level_seconds=60.0
    )
    table_services.seat_add_on(table_id=seats[1].table_id, user=seats[1].user)

    cancelled = cancel(tournament)

    assert [points_balance(user=s.user) for s in seats] == [10_000] * 3
    assert cancelled.prize_pool == 0
    assert moved_for(cancelled) == 0 and balance_total() == 3 * 10_000


def finish_the_hand(at: Table) -> None:
    """Everyone checks or folds the hand in play to its end: the table is between hands."""
    for _ in range(100):
        at.refresh_from_db()
        state = hand_state(at)
        if state is None or state.is_over:
            return
        seat = Seat.objects.get(table=at, number=state.actor)
        action = "check" if engine.legal_actions(state).can_check else "fold"
        table_services.hand_act(
            table_id=at.pk, user=seat.user, action=action, amount=None, decision=decision_of(at)
        )
    raise AssertionError("the hand did not end")

"""Rebuys and add-ons in a scheduled tournament: chips bought for points in the
rebuy period and after it, the offer to a player out of chips, and every point
of it in the ledger and the prize pool (docs/tournaments.md, "Rebuys and add-ons")."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db.models import Sum
from django.utils import timezone

import engine
from accounts.models import PointsAccount, PointsEntry
from accounts.points import points_balance
from tables import services as table_services
from tables.errors import CannotBuyChips, TableError
from tables.models import Seat, Table
from tables.play import hand_state
from tests.support.tournaments import registered, scheduled, started
from tests.tables.helpers import decision_of
from tests.tournaments.helpers import at_once, balance_total, members, moved_for
from tournaments import services
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db

STACK = 1500  # the regular structure's starting stack
REBUYS = {"rebuy_levels": 2, "max_rebuys": 2, "addon_chips": 3000, "addon_price": 50}


def rebuy_tournament(make_user: Any, players: int = 3, **settings: Any) -> Tournament:
    options = {"buy_in": 100, "seats_per_table": 6, **REBUYS, **settings}
    return started(registered(scheduled(**options), members(make_user, players)))


def on_level(tournament: Tournament, index: int) -> None:
    """The tournament's clock in level ``index`` (from 0) of 60-second levels."""
    Tournament.objects.filter(pk=tournament.pk).update(
        started_at=timezone.now() - timedelta(seconds=60 * index + 1), level_seconds=60.0
    )


def table(tournament: Tournament) -> Table:
    return Table.objects.get(tournament=tournament)


def shove_step(at: Table, shovers: set[int] | None = None) -> None:
    """One decision or deal: everyone (or only the members ``shovers`` names, the
    others checking or folding) moves all in or calls, so someone busts soon."""
    at.refresh_from_db()
    state = hand_state(at)
    if state is None or state.is_over:
        table_services.hand_start(table_id=at.pk, seq=at.seq)
        return
    seat = Seat.objects.get(table=at, number=state.actor)
    legal = engine.legal_actions(state)
    action, amount = ("raise", legal.max_raise_to) if legal.max_raise_to else ("call", None)
    if legal.can_check and legal.max_raise_to is None:
        action = "check"
    if shovers is not None and seat.user_id not in shovers:
        action, amount = ("check" if legal.can_check else "fold"), None
    table_services.hand_act(
        table_id=at.pk, user=seat.user, action=action, amount=amount, decision=decision_of(at)
    )


def until_someone_is_out_of_chips(tournament: Tournament) -> Seat:
    at = table(tournament)
    for _ in range(200):
        shove_step(at)
        at.refresh_from_db()
        state = hand_state(at)
        if state is not None and state.is_over:
            busted = Seat.objects.filter(table=at, stack=0, chips_to_add=0).first()
            if busted is not None:
                return busted
    raise AssertionError("nobody went out of chips")


def entry_of(seat: Seat) -> Entry:
    return Entry.objects.get(pk=seat.entry_id)


def test_a_player_out_of_chips_in_the_rebuy_period_is_offered_a_rebuy_and_takes_it(make_user):
    tournament = rebuy_tournament(make_user)
    busted = until_someone_is_out_of_chips(tournament)
    entry = entry_of(busted)
    assert entry.place is None and entry.rebuy_offer_until is not None  # not out yet
    before = points_balance(user=busted.user)

    table_services.seat_rebuy(table_id=busted.table_id, user=busted.user)

    entry.refresh_from_db()
    assert (entry.rebuys, entry.rebuy_offer_until, entry.place) == (1, None, None)
    assert points_balance(user=busted.user) == before - 100
    row = PointsEntry.objects.get(user=busted.user, reason="rebuy")
    assert (row.amount, row.tournament_id) == (-100, tournament.pk)
    tournament.refresh_from_db()
    assert tournament.prize_pool == 400  # three buy-ins and a rebuy
    # the chips arrive before the next hand: dealt in with the starting stack
    at = table(tournament)
    table_services.hand_start(table_id=at.pk, seq=Table.objects.get(pk=at.pk).seq)
    state = hand_state(table(tournament))
    assert state is not None and state.starting_stacks[busted.number] == STACK


def test_an_offer_not_taken_in_time_puts_the_player_out_in_last_place(make_user):
    tournament = rebuy_tournament(make_user)
    busted = until_someone_is_out_of_chips(tournament)
    until = entry_of(busted).rebuy_offer_until
    assert until is not None

    assert services.rebuy_offers_expire(tournament_id=tournament.pk, now=until - timedelta(1)) == 0
    assert services.rebuy_offers_due(now=until + timedelta(seconds=1)) == [tournament.pk]
    out = services.rebuy_offers_expire(
        tournament_id=tournament.pk, now=until + timedelta(seconds=1)
    )

    entry = entry_of(busted)
    # out in last place (or, two out of chips in one hand, in the last two by rule 19)
    assert entry.place == 4 - out and entry.rebuy_offer_until is None
    if out == 1:  # the table deals on without them, and their seat is cleared at the deal
        at = Table.objects.get(pk=busted.table_id)
        table_services.hand_start(table_id=at.pk, seq=at.seq)
        assert not Seat.objects.filter(pk=busted.pk).exists()
    else:
        assert Tournament.objects.get(pk=tournament.pk).status == "finished"


def test_saying_no_to_the_rebuy_is_out_at_once(make_user):
    tournament = rebuy_tournament(make_user)
    busted = until_someone_is_out_of_chips(tournament)

    table_services.seat_decline_rebuy(table_id=busted.table_id, user=busted.user)

    assert entry_of(busted).place == 3
    with pytest.raises(CannotBuyChips):  # out: nothing more to buy
        table_services.seat_rebuy(table_id=busted.table_id, user=busted.user)


def test_after_the_rebuy_period_out_of_chips_is_out_and_rebuys_are_refused(make_user):
    tournament = rebuy_tournament(make_user)
    on_level(tournament, 2)  # the period was levels 1 and 2
    seat = Seat.objects.filter(table__tournament=tournament).first()
    assert seat is not None
    with pytest.raises(CannotBuyChips, match="rebuy period is over"):
        table_services.seat_rebuy(table_id=seat.table_id, user=seat.user)

    busted = until_someone_is_out_of_chips(tournament)
    assert entry_of(busted).place is not None and entry_of(busted).rebuy_offer_until is None


def test_a_short_stack_rebuys_during_a_hand_and_gets_the_chips_before_the_next(make_user):
    tournament = rebuy_tournament(make_user)
    at = table(tournament)
    state = hand_state(at)
    assert state is not None
    seat = Seat.objects.get(table=at, number=state.actor)  # in the hand, at 1,500 chips

    table_services.seat_rebuy(table_id=at.pk, user=seat.user)

    seat.refresh_from_db()
    assert (seat.stack, seat.chips_to_add) == (STACK, STACK)
    assert hand_state(Table.objects.get(pk=at.pk)) == state  # the hand in play is untouched
    with pytest.raises(CannotBuyChips, match="arrive before your next hand"):
        table_services.seat_rebuy(table_id=at.pk, user=seat.user)


def test_a_big_stack_may_not_rebuy_and_nobody_rebuys_more_than_the_limit(make_user):
    tournament = rebuy_tournament(make_user, max_rebuys=1)
    at = table(tournament)
    seat = Seat.objects.filter(table=at).first()
    assert seat is not None
    Seat.objects.filter(pk=seat.pk).update(stack=STACK + 1)
    with pytest.raises(CannotBuyChips, match="1,500 chips or fewer"):
        table_services.seat_rebuy(table_id=at.pk, user=seat.user)
    Seat.objects.filter(pk=seat.pk).update(stack=STACK)
    table_services.seat_rebuy(table_id=at.pk, user=seat.user)
    Seat.objects.filter(pk=seat.pk).update(chips_to_add=0)  # as if dealt since
    with pytest.raises(CannotBuyChips, match="had your 1 rebuys"):
        table_services.seat_rebuy(table_id=at.pk, user=seat.user)


def test_the_add_on_is_sold_once_after_the_rebuy_period(make_user):
    tournament = rebuy_tournament(make_user)
    seat = Seat.objects.filter(table__tournament=tournament).first()
    assert seat is not None
    with pytest.raises(CannotBuyChips, match="end of the rebuy period"):
        table_services.seat_add_on(table_id=seat.table_id, user=seat.user)
    on_level(tournament, 2)
    before = points_balance(user=seat.user)

    table_services.seat_add_on(table_id=seat.table_id, user=seat.user)

    seat.refresh_from_db()
    assert seat.chips_to_add == 3000 and points_balance(user=seat.user) == before - 50
    assert Tournament.objects.get(pk=tournament.pk).prize_pool == 350
    with pytest.raises(CannotBuyChips, match="taken your add-on"):
        table_services.seat_add_on(table_id=seat.table_id, user=seat.user)
    on_level(tournament, 3)  # the level after the period is over: no more add-ons
    other = Seat.objects.filter(table__tournament=tournament).exclude(pk=seat.pk).first()
    assert other is not None
    with pytest.raises(CannotBuyChips):
        table_services.seat_add_on(table_id=other.table_id, user=other.user)


def test_the_snapshot_tells_the_player_what_they_may_buy(make_user):
    from tables.snapshot import build_snapshot

    tournament = rebuy_tournament(make_user)
    at = table(tournament)
    seats = {s.number: s for s in Seat.objects.filter(table=at).select_related("user")}
    viewer = next(iter(seats.values()))
    seen = build_snapshot(at, seats, hand_state(at), viewer, timezone.now())
    offer = seen["your_purchases"]
    assert offer["rebuy"] == {"price": 100, "chips": STACK, "left": 2, "until": None}
    assert offer["add_on"] is None and offer["unit"] == "points"
    assert build_snapshot(at, seats, hand_state(at), None, timezone.now())["your_purchases"] is None


def test_a_rebuy_tournament_played_to_its_end_pays_out_every_point_taken(make_user):
    tournament = rebuy_tournament(make_user, players=3)
    before = balance_total()
    at = table(tournament)
    for _ in range(3000):
        if Tournament.objects.get(pk=tournament.pk).status == "finished":
            break
        offered = Entry.objects.filter(tournament=tournament, rebuy_offer_until__isnull=False)
        for entry in offered.filter(place=None):
            seat = Seat.objects.get(entry=entry)
            if entry.rebuys < 2:
                table_services.seat_rebuy(table_id=seat.table_id, user=seat.user)
            else:
                table_services.seat_decline_rebuy(table_id=seat.table_id, user=seat.user)
        shove_step(at)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    rebuys = sum(e.rebuys for e in tournament.entries.all())
    assert rebuys > 0 and tournament.prize_pool == 100 * (3 + rebuys)
    assert sum(e.prize for e in tournament.entries.all()) == tournament.prize_pool
    places = sorted(e.place for e in tournament.entries.all())
    assert places in ([1, 2, 3], [1, 2, 2])  # two out in one hand with equal stacks: rule 19
    assert moved_for(tournament) == 0  # buy-ins, rebuys and prizes add up to nothing
    balances = PointsAccount.objects.aggregate(total=Sum("balance"))["total"]
    assert balances == balance_total() == before + 300  # the buy-ins came back as prizes


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
def test_a_rebuy_racing_the_end_of_its_offer_either_rebuys_or_is_out_never_both(make_user, round_):
    tournament = rebuy_tournament(make_user)
    busted = until_someone_is_out_of_chips(tournament)
    until = entry_of(busted).rebuy_offer_until
    assert until is not None

    rebuy, ended = at_once(
        [
            lambda: table_services.seat_rebuy(table_id=busted.table_id, user=busted.user),
            lambda: services.rebuy_offers_expire(
                tournament_id=tournament.pk, now=until + timedelta(seconds=1)
            ),
        ],
        errors=(TableError,),
    )

    entry = entry_of(busted)
    paid = PointsEntry.objects.filter(user=busted.user, reason="rebuy").count()
    if isinstance(rebuy, TableError):  # the offer ended first: out, nothing paid
        assert ended >= 1 and entry.place is not None and paid == 0
    else:  # the rebuy came first: in and paid once (another's offer may have ended)
        assert ended in (0, 1) and entry.place is None and entry.rebuys == paid == 1
    tournament.refresh_from_db()
    assert tournament.prize_pool == 100 * (3 + paid)


def test_chips_bought_travel_with_a_player_moved_to_another_table(make_user):
    from tournaments.services.start import table_open

    tournament = rebuy_tournament(make_user)
    seat = Seat.objects.filter(table__tournament=tournament).select_related("entry").first()
    assert seat is not None
    table_services.seat_rebuy(table_id=seat.table_id, user=seat.user)
    seat.refresh_from_db()

    moved = table_open(tournament, "Final table", {0: seat.entry}, {seat.entry_id: seat})

    arrived = Seat.objects.get(table=moved, entry=seat.entry)
    assert (arrived.stack, arrived.chips_to_add) == (STACK, STACK)  # nothing lost on the way


def test_cancelling_a_rebuy_tournament_refunds_the_rebuys_too(make_user):
    tournament = rebuy_tournament(make_user)
    seat = Seat.objects.filter(table__tournament=tournament).first()
    assert seat is not None
    before = points_balance(user=seat.user)
    table_services.seat_rebuy(table_id=seat.table_id, user=seat.user)

    services.tournament_cancel(tournament_id=tournament.pk)

    assert points_balance(user=seat.user) == before + 100  # the buy-in and the rebuy back
    assert moved_for(tournament) == 0
    assert Tournament.objects.get(pk=tournament.pk).prize_pool == 0

"""Rule 34: once a place has been paid, rebuys and the add-on are no longer sold.

A place is paid from the pool as it is then; a purchase after it would grow the
pool without that place ever getting its share, and the tournament's ledger would
keep points (a load test found it: docs/tournaments.md, "Rebuys and add-ons")."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from accounts.points import points_balance
from tables import services as table_services
from tables.errors import CannotBuyChips
from tables.models import Seat, Table
from tables.play import hand_state
from tables.snapshot import build_snapshot
from tests.tournaments.helpers import moved_for
from tests.tournaments.test_rebuys import STACK, on_level, rebuy_tournament, shove_step, table
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def until_places_given(tournament: Tournament, places: int) -> None:
    """Play until ``places`` players are out, each saying no to any rebuy offered."""
    at = table(tournament)
    for _ in range(2000):
        out = Entry.objects.filter(tournament=tournament, place__isnull=False)
        if out.count() >= places:
            return
        for entry in Entry.objects.filter(tournament=tournament, place=None).exclude(
            rebuy_offer_until=None
        ):
            seat = Seat.objects.get(entry=entry)
            table_services.seat_decline_rebuy(table_id=seat.table_id, user=seat.user)
        alive = Seat.objects.filter(table=at, stack__gt=0).order_by("number")
        shove_step(at, set(list(alive.values_list("user_id", flat=True))[:2]))
    raise AssertionError(f"{places} players did not go out")


def purchases_of(seat: Seat) -> Any:
    at = Table.objects.get(pk=seat.table_id)
    seats = {s.number: s for s in Seat.objects.filter(table=at).select_related("user")}
    viewer = seats[seat.number]
    return build_snapshot(at, seats, hand_state(at), viewer, timezone.now())["your_purchases"]


def test_once_a_place_is_paid_the_add_on_is_refused_and_no_point_is_lost(make_user):
    # rule 34: 4 players, 3 paid; the add-on level
    tournament = rebuy_tournament(make_user, players=4, payout_percentages=[50, 30, 20])
    on_level(tournament, 2)
    at = table(tournament)
    seat = Seat.objects.filter(table=at).first()
    assert seat is not None and purchases_of(seat)["add_on"] is not None  # sold so far

    until_places_given(tournament, 2)  # 4th, then 3rd: a paid place

    seat = Seat.objects.filter(table=at, stack__gt=0).order_by("number").first()
    assert seat is not None
    pool, balance = (
        Tournament.objects.get(pk=tournament.pk).prize_pool,
        points_balance(user=seat.user),
    )
    with pytest.raises(CannotBuyChips, match="reached the money"):
        table_services.seat_add_on(table_id=at.pk, user=seat.user)
    seat.refresh_from_db()
    assert seat.chips_to_add == 0 and not Entry.objects.get(pk=seat.entry_id).has_added_on
    assert Tournament.objects.get(pk=tournament.pk).prize_pool == pool
    assert points_balance(user=seat.user) == balance
    assert purchases_of(seat) is None  # no add-on offered on the table page

    for _ in range(2000):
        if Tournament.objects.get(pk=tournament.pk).status == "finished":
            break
        shove_step(at)
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    assert moved_for(tournament) == 0  # the ledger sums to zero: no point kept


def test_once_a_place_is_paid_rebuys_are_refused_and_not_offered(make_user):
    # rule 34, in the rebuy period
    tournament = rebuy_tournament(make_user, players=4, payout_percentages=[50, 30, 20])
    until_places_given(tournament, 2)
    at = table(tournament)
    seat = Seat.objects.filter(table=at, stack__gt=0).order_by("number").first()
    assert seat is not None
    Seat.objects.filter(pk=seat.pk).update(stack=STACK)  # short enough to rebuy
    seat.refresh_from_db()
    pool = Tournament.objects.get(pk=tournament.pk).prize_pool

    with pytest.raises(CannotBuyChips, match="reached the money"):
        table_services.seat_rebuy(table_id=at.pk, user=seat.user)
    assert Tournament.objects.get(pk=tournament.pk).prize_pool == pool
    assert Entry.objects.get(pk=seat.entry_id).rebuys == 0
    assert purchases_of(seat) is None  # no rebuy button

    shovers = set(Seat.objects.filter(table=at, stack__gt=0).values_list("user_id", flat=True))
    for _ in range(2000):  # heads-up to the end, no offer answered
        offered = Entry.objects.filter(tournament=tournament, place=None).exclude(
            rebuy_offer_until=None
        )
        if offered or Tournament.objects.get(pk=tournament.pk).status == "finished":
            break
        shove_step(at, shovers)
    assert not offered  # out of chips in the money: out at once, second
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    assert moved_for(tournament) == 0

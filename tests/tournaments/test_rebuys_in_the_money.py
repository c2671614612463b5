"""Rule 34: once a place has been paid, rebuys and the add-on are no longer sold.

A place is paid from the pool as it is then; a purchase after it would grow the
pool without that place ever getting its share, and the tournament's ledger would
keep points (a load test found it: docs/tournaments.md, "Rebuys and add-ons")."""

from __future__ import annotations

import time
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
from tests.tournaments.test_rebuys import (
    STACK,
    entry_of,
    on_level,
    rebuy_tournament,
    shove_step,
    table,
    until_someone_is_out_of_chips,
)
from tournaments import services
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


def placed_within(entry_id: int, seconds: float) -> int | None:
    """``entry_id``'s place once it has one, waiting up to ``seconds`` for the worker."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        place = Entry.objects.get(pk=entry_id).place
        if place is not None:
            return place
        time.sleep(0.05)
    return None


# An offer lasts 20 s; an offer the worker ends within this was ended because the
# rebuy closed, not because its time passed.
WELL_BEFORE_ITS_TIME = 5.0


def test_an_offer_waiting_when_the_rebuy_period_ends_has_ended(make_user):
    tournament = rebuy_tournament(make_user)
    busted = until_someone_is_out_of_chips(tournament)
    until = entry_of(busted).rebuy_offer_until
    assert until is not None and services.rebuy_offers_due(now=timezone.now()) == []

    on_level(tournament, 2)  # the add-on level: no rebuy can be bought now
    now = timezone.now()
    assert now < until

    assert services.rebuy_offers_due(now=now) == [tournament.pk]  # the sweep's catch-up
    assert services.rebuy_offers_expire(tournament_id=tournament.pk, now=now) >= 1
    assert entry_of(busted).place is not None and entry_of(busted).rebuy_offer_until is None


def one_out_of_chips(tournament: Tournament) -> Seat:
    """Two of the players shove at each other (the others fold) until one of them is
    out of chips: one offer, and players left to play on."""
    at = table(tournament)
    shovers = set(
        Seat.objects.filter(table=at).order_by("number")[:2].values_list("user", flat=True)
    )
    for _ in range(2000):
        busted = Seat.objects.filter(table=at, stack=0, chips_to_add=0).first()
        if busted is not None:
            return busted
        shove_step(at, shovers)
    raise AssertionError("nobody went out of chips")


@pytest.fixture
def worker_leaves_the_dealing(settings: Any, celery_worker: None) -> None:
    """A real worker, which would deal each next hand a minute later: the test deals."""
    settings.TABLES_NEXT_HAND_SECONDS = 60.0


@pytest.mark.django_db(transaction=True)
def test_the_level_after_the_rebuy_period_ends_a_waiting_offer_at_once(
    make_user, worker_leaves_the_dealing
):
    tournament = rebuy_tournament(make_user)
    busted = one_out_of_chips(tournament)
    assert entry_of(busted).rebuy_offer_until is not None

    on_level(tournament, 2)
    assert services.tournament_level_announce(tournament_id=tournament.pk) == 2

    assert placed_within(busted.entry_id, WELL_BEFORE_ITS_TIME) is not None


@pytest.mark.django_db(transaction=True)
def test_a_bust_that_reaches_the_money_ends_a_waiting_offer_at_once(
    make_user, worker_leaves_the_dealing
):
    # 3 players, 3 paid: the first player placed is in the money
    tournament = rebuy_tournament(make_user, payout_percentages=[50, 30, 20])
    busted = one_out_of_chips(tournament)
    assert entry_of(busted).rebuy_offer_until is not None
    others = Entry.objects.filter(tournament=tournament, place=None).exclude(pk=busted.entry_id)
    others.update(rebuys=tournament.max_rebuys)  # the next one out is placed, not offered

    at = table(tournament)
    shovers = set(others.values_list("user_id", flat=True))
    for _ in range(2000):
        if Entry.objects.filter(tournament=tournament, place__isnull=False).exists():
            break
        shove_step(at, shovers)
    assert Entry.objects.filter(tournament=tournament, place=3).exists()

    # the offer can no longer be taken, so it does not keep the tournament waiting
    assert placed_within(busted.entry_id, WELL_BEFORE_ITS_TIME) == 2
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    assert moved_for(tournament) == 0


async def notices_heard(client: Any) -> list[str]:
    """The texts of the ``money`` notices among the frames ``client`` has been sent."""
    texts = []
    while not await client.socket.receive_nothing(timeout=0.5):
        frame = await client.next()
        if frame["type"] == "notice" and frame["notice"]["kind"] == "money":
            texts.append(frame["notice"]["text"])
    return texts


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_database_connections")
async def test_the_table_hears_when_the_bubble_bursts_and_when_rebuys_close(make_user):
    from asgiref.sync import sync_to_async

    from tests.tables.sockets import Client

    # 4 players, 3 paid, in the rebuy period
    tournament = await sync_to_async(rebuy_tournament)(
        make_user, players=4, payout_percentages=[50, 30, 20]
    )
    at = await sync_to_async(table)(tournament)
    folder = await Seat.objects.select_related("user").filter(table=at).order_by("number").alast()
    assert folder is not None  # never among the two who shove, so never out
    client = await Client.open(folder.user, at.pk)

    await sync_to_async(until_places_given)(tournament, 1)  # 4th: the bubble
    assert await notices_heard(client) == ["In the money: each of the 3 players left wins a prize"]
    await sync_to_async(until_places_given)(tournament, 2)  # 3rd: the first paid place
    assert await notices_heard(client) == [
        "Rebuys and the add-on have closed: a paid place has been given"
    ]
    await client.close()

"""Registering and unregistering: buy-ins, refunds, and every refusal changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from accounts.models import PointsAccount, PointsEntry
from accounts.points import points_balance, points_move
from tables.models import Seat, Table
from tests.tournaments.helpers import members, moved_for, register, sng
from tournaments import services
from tournaments.errors import (
    AlreadyRegistered,
    NotEnoughPoints,
    NotRegistered,
    NotRegistering,
    SignInRequired,
)
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_registering_takes_the_buy_in_into_the_prize_pool(make_user):
    alice = make_user("alice")
    tournament = register(sng(buy_in=100), [alice])

    assert points_balance(user=alice) == 9_900
    assert tournament.prize_pool == 100
    row = PointsEntry.objects.get(user=alice, reason="buy_in")
    assert (row.amount, row.tournament_id) == (-100, tournament.pk)


def test_unregistering_before_the_start_refunds_the_buy_in_in_full(make_user):
    alice = make_user("alice")
    tournament = register(sng(buy_in=100), [alice])

    services.tournament_unregister(tournament_id=tournament.pk, user=alice)

    assert points_balance(user=alice) == 10_000
    assert Tournament.objects.get(pk=tournament.pk).prize_pool == 0
    assert not tournament.entries.exists()
    assert moved_for(tournament) == 0


def test_a_freeroll_moves_no_points(make_user):
    alice = make_user("alice")
    tournament = register(sng(buy_in=0), [alice])
    assert tournament.entries.count() == 1
    assert not PointsEntry.objects.filter(tournament=tournament).exists()


def test_a_short_balance_is_refused_with_the_amounts_and_nothing_changes(make_user):
    alice = make_user("alice")
    points_move(user=alice, amount=-9_950, reason=PointsEntry.Reason.GRANT)
    tournament = sng(buy_in=100)

    with pytest.raises(NotEnoughPoints, match="You have 50 points; this needs 100"):
        services.tournament_register(tournament_id=tournament.pk, user=alice)

    assert points_balance(user=alice) == 50
    assert not tournament.entries.exists()
    assert Tournament.objects.get(pk=tournament.pk).prize_pool == 0


def test_registering_twice_is_refused_and_charges_once(make_user):
    alice = make_user("alice")
    tournament = register(sng(buy_in=100), [alice])
    with pytest.raises(AlreadyRegistered):
        services.tournament_register(tournament_id=tournament.pk, user=alice)
    assert points_balance(user=alice) == 9_900


def test_unregistering_without_an_entry_is_refused(make_user):
    tournament = sng()
    with pytest.raises(NotRegistered):
        services.tournament_unregister(tournament_id=tournament.pk, user=make_user("alice"))


@pytest.mark.parametrize("user", [None, AnonymousUser()])
def test_anonymous_callers_cannot_register(user):
    tournament = sng()
    with pytest.raises(SignInRequired):
        services.tournament_register(tournament_id=tournament.pk, user=user)
    assert not tournament.entries.exists()


def test_an_inactive_member_cannot_register(make_user):
    alice = make_user("alice", is_active=False)
    with pytest.raises(SignInRequired):
        services.tournament_register(tournament_id=sng().pk, user=alice)
    assert not PointsAccount.objects.filter(user=alice).exists()


def test_the_sixth_registration_starts_the_sng_with_the_first_hand_dealt(make_user):
    players = members(make_user, 6)
    tournament = register(sng(structure="turbo", buy_in=100), players)

    assert tournament.status == "running" and tournament.started_at is not None
    assert tournament.prize_pool == 600
    table = Table.objects.get(tournament=tournament)
    assert table.kind == "tournament" and table.hand_number == 1
    assert table.hand_events, "the first hand is dealt in the same transaction"
    seats = Seat.objects.filter(table=table)
    assert sorted(s.user_id for s in seats) == sorted(p.pk for p in players)
    assert {s.stack for s in seats} == {1500}
    assert (table.small_blind, table.big_blind, table.level) == (10, 20, 0)


def test_a_full_sng_opens_a_fresh_one_of_the_same_kind(make_user):
    tournament = register(sng(structure="hyper", buy_in=1000), members(make_user, 6))
    fresh = Tournament.objects.get(status="registering", structure="hyper", buy_in=1000)
    assert fresh.pk != tournament.pk and not fresh.entries.exists()


def test_registering_for_a_started_or_cancelled_sng_is_refused(make_user):
    started = register(sng(), members(make_user, 6))
    late = make_user("late")
    with pytest.raises(NotRegistering, match="already started"):
        services.tournament_register(tournament_id=started.pk, user=late)

    cancelled = Tournament.objects.get(status="registering")
    services.tournament_cancel(tournament_id=cancelled.pk)
    with pytest.raises(NotRegistering, match="cancelled"):
        services.tournament_register(tournament_id=cancelled.pk, user=late)
    assert points_balance(user=late) == 10_000


def test_unregistering_after_the_start_is_refused_and_refunds_nothing(make_user):
    players = members(make_user, 6)
    tournament = register(sng(buy_in=100), players)
    with pytest.raises(NotRegistering, match="can no longer unregister"):
        services.tournament_unregister(tournament_id=tournament.pk, user=players[0])
    assert points_balance(user=players[0]) == 9_900
    assert moved_for(tournament) == -600


def test_cancelling_a_running_sng_refunds_every_buy_in_and_stops_its_table(make_user):
    players = members(make_user, 6)
    tournament = register(sng(buy_in=100), players)

    services.tournament_cancel(tournament_id=tournament.pk)

    assert Tournament.objects.get(pk=tournament.pk).status == "cancelled"
    assert all(points_balance(user=p) == 10_000 for p in players)
    assert moved_for(tournament) == 0
    table = Table.objects.get(tournament=tournament)
    assert table.wake_at is None and not table.seats.exists()


def test_a_practice_sng_cannot_be_joined(make_user):
    tournament, _ = services.practice_sng_start(user=make_user("alice"))
    with pytest.raises(NotRegistering):
        services.tournament_register(tournament_id=tournament.pk, user=make_user("bob"))


def test_the_sweep_opens_one_sng_per_game_structure_and_buy_in(settings):
    from tournaments.tasks import sweep

    sweep()
    sweep()
    open_sngs = Tournament.objects.filter(status="registering", kind="sng")
    holdem = len(settings.TOURNAMENTS_STRUCTURES) * len(settings.TOURNAMENTS_BUY_INS)
    assert open_sngs.filter(game="nlhe").count() == holdem
    assert open_sngs.filter(game="plo").count() == len(settings.TOURNAMENTS_OMAHA_SNGS) >= 1

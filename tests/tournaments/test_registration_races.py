"""Registrations at the same moment: one last seat, one start, one fresh SNG, no lost point."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.points import points_account_open, points_balance
from tables.models import Table
from tests.tournaments.helpers import at_once, balance_total, members, moved_for, register, sng
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_twenty_members_racing_for_the_last_seat_one_gets_it_and_nobody_else_pays(make_user):
    tournament = register(sng(structure="turbo", buy_in=100), members(make_user, 5))
    racers = members(make_user, 20, prefix="racer")
    for racer in racers:
        points_account_open(user=racer)
    before = balance_total()

    outcomes = at_once(
        [
            lambda user=user: services.tournament_register(tournament_id=tournament.pk, user=user)
            for user in racers
        ]
    )

    winners = [u for u, o in zip(racers, outcomes, strict=True) if isinstance(o, Tournament)]
    refusals = [o for o in outcomes if isinstance(o, TournamentError)]
    assert len(winners) == 1 and len(refusals) == 19
    assert {r.code for r in refusals} == {"not_registering"}
    assert [points_balance(user=u) for u in racers].count(9_900) == 1
    assert all(points_balance(user=u) == 10_000 for u in racers if u not in winners)
    assert Table.objects.filter(tournament=tournament).count() == 1, "started once"
    fresh = Tournament.objects.filter(status="registering", structure="turbo", buy_in=100)
    assert fresh.count() == 1, "a new one opened once"
    assert moved_for(tournament) == -600
    assert balance_total() == before - 100


def race_sixth_against_unregister(make_user: Any, attempt: int) -> None:
    first_five = members(make_user, 5, prefix=f"a{attempt}-")
    tournament = register(sng(structure="hyper", buy_in=100), first_five)
    sixth = make_user(f"sixth{attempt}")
    leaver = first_five[0]

    outcomes = at_once(
        [
            lambda: services.tournament_register(tournament_id=tournament.pk, user=sixth),
            lambda: services.tournament_unregister(tournament_id=tournament.pk, user=leaver),
        ]
    )

    tournament.refresh_from_db()
    registered, unregistered = (not isinstance(o, TournamentError) for o in outcomes)
    if unregistered:  # it went first: five again, nobody started, the leaver refunded
        assert registered and tournament.status == "registering"
        assert tournament.entries.count() == 5
        assert points_balance(user=leaver) == 10_000
    else:  # the sixth went first: started, the leaver kept in and still charged
        assert registered and tournament.status == "running"
        assert outcomes[1].code == "not_registering"
        assert points_balance(user=leaver) == 9_900
    paid = tournament.entries.count() * 100
    assert tournament.prize_pool == paid == -moved_for(tournament)
    services.tournament_cancel(tournament_id=tournament.pk)


def test_an_unregistration_at_the_moment_of_the_sixth_registration_never_both(make_user):
    for attempt in range(3):
        race_sixth_against_unregister(make_user, attempt)

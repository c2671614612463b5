"""Re-entry: a player out of a tournament during late registration registers again as
a new entry, seated as a late entry; places, the pool, the ledger and the player's
ROI count entries, and tournaments once (docs/tournaments.md, "Re-entry")."""

from __future__ import annotations

import contextlib
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

import engine
from accounts.points import points_balance
from tables import services as table_services
from tables.models import Seat, Table
from tables.play import hand_state
from tests.support.tournaments import registered, scheduled, started
from tests.tables.helpers import decision_of
from tests.tournaments.helpers import members, moved_for
from tests.tournaments.test_rebuys import on_level, table
from tournaments import services
from tournaments.errors import AlreadyRegistered, BadSettings, NoReentriesLeft, NotRegistering
from tournaments.models import Entry, Tournament
from tournaments.selectors import entry_of, players, summary, tournament_stats
from tournaments.tournament_settings import TournamentSettings

pytestmark = pytest.mark.django_db

SETTINGS = {"buy_in": 100, "seats_per_table": 6, "late_registration_levels": 2}


def reentry_tournament(
    make_user: Any, players: int = 5, prefix: str = "player", **settings: Any
) -> Tournament:
    options = {**SETTINGS, "max_reentries": 1, **settings}
    return started(registered(scheduled(**options), members(make_user, players, prefix)))


def duel_step(at: Table) -> None:
    """One decision or deal: the first player to act moves all in, the first to face
    that calls and the rest fold, so players go out one at a time."""
    at.refresh_from_db()
    state = hand_state(at)
    if state is None or state.is_over:
        table_services.hand_start(table_id=at.pk, seq=at.seq)
        return
    legal = engine.legal_actions(state)
    engaged = sum(  # the all-in and whoever answered it, all in for less included
        1
        for seat in state.players
        if state.stacks[seat] == 0 or state.bets[seat] == state.current_bet
    )
    if state.current_bet <= state.big_blind and legal.max_raise_to is not None:
        action, amount = "raise", legal.max_raise_to
    elif legal.can_check:
        action, amount = "check", None
    elif engaged <= 1:
        action, amount = "call", None
    else:
        action, amount = "fold", None
    seat = Seat.objects.get(table=at, number=state.actor)
    table_services.hand_act(
        table_id=at.pk, user=seat.user, action=action, amount=amount, decision=decision_of(at)
    )


def until_someone_is_out(tournament: Tournament) -> Entry:
    at = table(tournament)
    for _ in range(300):
        duel_step(at)
        out = tournament.entries.filter(place__isnull=False).first()
        if out is not None:
            return out
    raise AssertionError("nobody went out")


def test_a_player_out_during_late_registration_enters_again_and_is_seated(make_user):
    tournament = reentry_tournament(make_user)
    out = until_someone_is_out(tournament)
    user = out.user
    before = points_balance(user=user)

    services.tournament_register(tournament_id=tournament.pk, user=user)

    again = Entry.objects.get(tournament=tournament, user=user, place=None)
    assert again.pk != out.pk and again.paid == 100
    assert points_balance(user=user) == before - 100
    seat = Seat.objects.get(entry=again)
    assert seat.stack == 1500  # the starting stack, as a late entry
    tournament.refresh_from_db()
    assert tournament.prize_pool == 600 and tournament.entries.count() == 6
    facts = summary(tournament)
    assert (facts["registered"], facts["reentries"]) == (6, 1)
    assert entry_of(tournament, user) == again  # the page follows the entry still in
    rows = [row for row in players(tournament) if row["username"] == user.username]
    assert sorted(row["is_reentry"] for row in rows) == [False, True]


def test_re_entries_stop_at_the_most_and_with_late_registration(make_user):
    tournament = reentry_tournament(make_user)
    out = until_someone_is_out(tournament)
    with pytest.raises(AlreadyRegistered):  # still in: one entry at a time
        other = tournament.entries.filter(place=None).first()
        assert other is not None
        services.tournament_register(tournament_id=tournament.pk, user=other.user)
    services.tournament_register(tournament_id=tournament.pk, user=out.user)
    Entry.objects.filter(tournament=tournament, user=out.user, place=None).update(place=9)
    with pytest.raises(NoReentriesLeft, match="re-entered 1 time"):
        services.tournament_register(tournament_id=tournament.pk, user=out.user)

    late = reentry_tournament(make_user, prefix="late", name="Late", max_reentries=3)
    gone = until_someone_is_out(late)
    on_level(late, 2)  # late registration was levels 1 and 2
    with pytest.raises(NotRegistering):
        services.tournament_register(tournament_id=late.pk, user=gone.user)


def test_without_re_entry_a_player_out_cannot_register_again(make_user):
    tournament = started(registered(scheduled(**SETTINGS), members(make_user, 5)))
    out = until_someone_is_out(tournament)
    with pytest.raises(AlreadyRegistered):
        services.tournament_register(tournament_id=tournament.pk, user=out.user)


def test_a_tournament_with_re_entries_played_out_places_every_entry(make_user):
    tournament = reentry_tournament(make_user, max_reentries=2)
    at = table(tournament)
    for _ in range(4000):
        tournament.refresh_from_db()
        if tournament.status == "finished":
            break
        if tournament.is_late_registration_open(timezone.now()):
            for entry in tournament.entries.filter(place__isnull=False):
                count = tournament.entries.filter(user=entry.user).count()
                live = tournament.entries.filter(user=entry.user, place=None).exists()
                if not live and count <= 2:
                    with contextlib.suppress(NotRegistering):  # the money reached: closed
                        services.tournament_register(tournament_id=tournament.pk, user=entry.user)
        duel_step(at)
    assert tournament.status == "finished"
    entries = list(tournament.entries.all())
    assert len(entries) > 5  # somebody re-entered
    places = [e.place for e in entries]  # 1st to last over every entry (rule 19 ties share)
    assert all(p is not None and p == 1 + sum(q < p for q in places) for p in places)
    assert max(places) > 5
    assert sum(e.prize for e in entries) == tournament.prize_pool == 100 * len(entries)
    assert moved_for(tournament) == 0
    reentered = next(e.user for e in entries if tournament.entries.filter(user=e.user).count() > 1)
    stats = tournament_stats(player=reentered)
    assert stats["itm"]["denominator"] == 1  # one tournament, however many entries
    paid = 100 * tournament.entries.filter(user=reentered).count()
    won = sum(e.prize for e in tournament.entries.filter(user=reentered))
    assert (stats["roi"]["numerator"], stats["roi"]["denominator"]) == (won - paid, paid)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"max_reentries": 1}, "during late registration: give it levels"),
        (
            {"max_reentries": 1, "late_registration_levels": 2, "rebuy_levels": 1, "max_rebuys": 1},
            "re-entries or rebuys, not both",
        ),
    ],
)
def test_re_entry_needs_late_registration_and_no_rebuys(given, message):
    with pytest.raises(BadSettings, match=message):
        TournamentSettings(name="Again", starts_at=timezone.now() + timedelta(hours=1), **given)


def test_late_registration_closes_before_anyone_out_could_be_in_the_money(make_user):
    # Four places paid: with three still in, a player out is in 4th place or lower,
    # in the money; an entry now would move them down and out of it.
    tournament = reentry_tournament(make_user, payout_percentages=[40, 30, 20, 10])
    until_someone_is_out(tournament)
    still_in = list(tournament.entries.filter(place=None))
    Entry.objects.filter(pk=still_in[0].pk).update(place=4)  # three left now

    with pytest.raises(NotRegistering, match="reached the money"):
        services.tournament_register(tournament_id=tournament.pk, user=still_in[0].user)

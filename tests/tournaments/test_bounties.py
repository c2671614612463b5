"""Knockout bounties in a scheduled tournament: part of each buy-in rides on the
player's head and goes to whoever knocks them out (rules 26 and 27), every point
in the ledger; the seats, the PokerStars text and the tournament's facts show them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

import engine
from accounts.models import PointsEntry
from tables.models import Hand, Seat
from tables.play import hand_state
from tables.snapshot import build_snapshot
from tests.support.tournaments import registered, scheduled, started
from tests.tournaments.helpers import members, moved_for
from tests.tournaments.test_rebuys import shove_step, table
from tournaments import services
from tournaments.errors import BadSettings
from tournaments.histories import pokerstars_meta
from tournaments.models import Entry, Knockout, Tournament
from tournaments.selectors import summary
from tournaments.services.results import eliminate
from tournaments.tournament_settings import TournamentSettings

pytestmark = pytest.mark.django_db


def knockout_tournament(make_user: Any, players: int = 4, **settings: Any) -> Tournament:
    options = {"buy_in": 100, "bounty": 40, "seats_per_table": 6, **settings}
    return started(registered(scheduled(**options), members(make_user, players)))


def play_to_the_end(tournament: Tournament) -> Tournament:
    at = table(tournament)
    for _ in range(5000):
        if Tournament.objects.get(pk=tournament.pk).status == "finished":
            break
        shove_step(at)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    return tournament


def test_the_bounty_is_kept_out_of_the_prize_pool_and_rides_on_each_player(make_user):
    tournament = knockout_tournament(make_user)
    assert tournament.prize_pool == 4 * 60
    assert {e.bounty for e in tournament.entries.all()} == {40}
    facts = summary(tournament)
    assert facts["bounties"] == {"bounty": 40, "is_progressive": False, "taken": 0}


def test_every_bounty_is_paid_to_whoever_took_it_and_the_winner_keeps_their_own(make_user):
    tournament = play_to_the_end(knockout_tournament(make_user))

    knockouts = list(Knockout.objects.filter(tournament=tournament))
    out = [e for e in tournament.entries.all() if e.place != 1]
    # every player out had their 40 taken, whole or shared by equal stacks (rule 26)
    assert {k.busted_id for k in knockouts} == {e.pk for e in out}
    for entry in out:
        assert sum(k.paid for k in knockouts if k.busted_id == entry.pk) == 40
    paid = PointsEntry.objects.filter(tournament=tournament, reason="bounty")
    assert paid.aggregate(total=Sum("amount"))["total"] == 4 * 40  # the winner's own too
    assert all(e.bounty == 0 for e in tournament.entries.all())
    assert moved_for(tournament) == 0  # buy-ins in, prizes and bounties out, to the point
    for knockout in knockouts:  # who took it won the pot the busted player's chips were in
        hand = Hand.objects.get(pk=knockout.hand_id)
        state = engine.replay([engine.event_from_dict(e) for e in hand.events])
        seat_of = {p.user_id: p.seat for p in hand.players.all()}
        busted = seat_of[knockout.busted.user_id]
        assert seat_of[knockout.winner.user_id] in engine.knockouts(state)[busted]


def test_a_progressive_bounty_pays_half_and_adds_half_to_the_winners_own(make_user):
    tournament = play_to_the_end(knockout_tournament(make_user, progressive_bounty=True))

    first = Knockout.objects.filter(tournament=tournament).order_by("pk").first()
    assert first is not None
    # the first player out carried 40: 20 paid and 20 added (shared by equal stacks)
    taken = Knockout.objects.filter(busted=first.busted)
    assert sum(k.paid for k in taken) == sum(k.added for k in taken) == 20
    assert all(k.bounty_after >= 40 + k.added for k in taken)
    paid = PointsEntry.objects.filter(tournament=tournament, reason="bounty")
    assert paid.aggregate(total=Sum("amount"))["total"] == 4 * 40
    assert moved_for(tournament) == 0


def test_the_seats_show_each_players_bounty(make_user):
    tournament = knockout_tournament(make_user)
    at = table(tournament)
    seats = {s.number: s for s in Seat.objects.filter(table=at).select_related("user")}

    seen = build_snapshot(at, seats, hand_state(at), None, timezone.now())

    assert seen["bounties"] == {number: 40 for number in seats}


def test_the_pokerstars_text_says_who_won_whose_bounty(make_user):
    tournament = play_to_the_end(knockout_tournament(make_user, players=2))
    knockout = Knockout.objects.get(tournament=tournament)
    hand = Hand.objects.get(pk=knockout.hand_id)
    state = engine.replay([engine.event_from_dict(e) for e in hand.events])
    names = [None] * state.seat_count
    for player in hand.players.all():
        names[player.seat] = player.name

    text = engine.to_pokerstars(state, players=names, **pokerstars_meta(hand))

    winner, busted = knockout.winner.name, knockout.busted.name
    assert f"{winner} wins the 40 bounty for eliminating {busted}\n" in text
    assert text.index("bounty for eliminating") < text.index("finished the tournament")


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"buy_in": 100, "bounty": 101}, "The bounty must be a whole number from 0 to 100"),
        ({"buy_in": 100, "progressive_bounty": True}, "A progressive knockout needs a bounty"),
    ],
)
def test_a_bounty_is_part_of_the_buy_in(given, message):
    with pytest.raises(BadSettings, match=message):
        TournamentSettings(name="KO", starts_at=timezone.now() + timedelta(hours=1), **given)


def test_players_unregistering_before_the_start_get_their_whole_buy_in_back(make_user):
    tournament = registered(scheduled(buy_in=100, bounty=40), members(make_user, 2))
    user = tournament.entries.first().user  # type: ignore[union-attr]

    services.tournament_unregister(tournament_id=tournament.pk, user=user)

    tournament.refresh_from_db()
    assert tournament.prize_pool == 60  # the other player's buy-in, less their bounty
    assert not Entry.objects.filter(tournament=tournament, user=user).exists()
    assert moved_for(tournament) == -100


@pytest.mark.parametrize(
    ("stacks", "shares"),
    [((1000, 1000), (20, 20)), ((900, 1200), (0, 40)), ((1000, 1000, 1000), (14, 13, 13))],
)
def test_several_knocking_one_player_out_the_covering_stack_takes_the_bounty(
    make_user, stacks, shares
):
    # A split pot busts one player: the knocker who started the hand with the most
    # chips takes the bounty; equal stacks share it, odd points in seat order (rule 26).
    tournament = knockout_tournament(make_user, players=len(stacks) + 1)
    busted, *knockers = list(tournament.entries.order_by("pk"))
    busted.knocked_out_by = [[k.pk, chips] for k, chips in zip(knockers, stacks, strict=True)]
    busted.chips_at_elimination = 500
    still_in = list(tournament.entries.filter(place=None))

    with transaction.atomic():
        eliminate(tournament, [busted], still_in, None, timezone.now())

    won = {k.winner_id: k.paid for k in Knockout.objects.filter(busted=busted)}
    assert tuple(won.get(k.pk, 0) for k in knockers) == shares
    for knocker, share in zip(knockers, shares, strict=True):
        bounty_rows = PointsEntry.objects.filter(user=knocker.user, reason="bounty")
        assert sum(bounty_rows.values_list("amount", flat=True)) == share
        assert Entry.objects.get(pk=knocker.pk).bounties_won == share

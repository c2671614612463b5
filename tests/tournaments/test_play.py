"""Playing a sit-n-go: blinds by level, nobody leaves, eliminations, places and prizes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.points import points_account_open, points_balance
from tables import selectors
from tables import services as table_services
from tables.errors import CannotLeave
from tables.models import Hand, Seat
from tables.play import hand_state
from tables.snapshot import iso
from tests.tables.helpers import decision_of
from tests.tournaments.helpers import (
    balance_total,
    members,
    moved_for,
    play_to_the_end,
    register,
    sng,
    table_of,
)
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def six(make_user):
    players = members(make_user, 6)
    for player in players:
        points_account_open(user=player)
    return players


def test_a_sng_plays_to_one_winner_with_every_place_given_and_the_prizes_paid(six):
    before = balance_total()
    tournament = play_to_the_end(register(sng(buy_in=100), six))

    entries = list(tournament.entries.all())
    assert tournament.status == "finished" and tournament.ended_at is not None
    assert [e.place for e in entries].count(1) == 1
    assert all(e.place is not None for e in entries)
    assert sum(e.prize for e in entries) == 600
    assert moved_for(tournament) == 0, "buy-ins in, prizes out, to the point"
    assert balance_total() == before
    winner = next(e for e in entries if e.place == 1)
    assert winner.prize >= 390
    assert points_balance(user=winner.user) == 10_000 - 100 + winner.prize
    assert Seat.objects.filter(table__tournament=tournament, stack__gt=0).count() == 1


def test_places_follow_the_order_players_went_out_in(six):
    tournament = play_to_the_end(register(sng(buy_in=0), six))
    out = sorted(
        (e for e in tournament.entries.all() if e.place != 1),
        key=lambda e: (e.eliminated_at, -(e.chips_at_elimination or 0)),
    )
    places = [e.place for e in out]
    assert places == sorted(places, reverse=True), "the first out finishes last"


def test_a_player_cannot_leave_a_running_sng_and_nothing_changes(six):
    tournament = register(sng(), six)
    table = table_of(tournament)
    seq = table.seq

    with pytest.raises(CannotLeave, match="sit out instead"):
        table_services.seat_leave(table_id=table.pk, user=six[0])

    assert table_of(tournament).seq == seq
    assert Seat.objects.filter(table=table, user=six[0], is_leaving=False).exists()


def test_a_sitting_out_player_is_still_dealt_in_and_folded_at_once(six):
    tournament = register(sng(), six)
    table = table_of(tournament)
    table_services.seat_sit_out(table_id=table.pk, user=six[0])
    play_to_the_end_of_hand(tournament)
    table_services.hand_start(table_id=table.pk, seq=table_of(tournament).seq)
    seat = Seat.objects.get(table=table, user=six[0])

    state = hand_state(table_of(tournament))
    assert state.is_dealt_in[seat.number]
    assert state.actor != seat.number


def play_to_the_end_of_hand(tournament: Tournament) -> None:
    from tests.tournaments.helpers import play_one_step

    for _ in range(100):
        state = hand_state(table_of(tournament))
        if state.is_over:
            return
        play_one_step(tournament, push=False)
    raise AssertionError("the hand did not end")


def test_a_table_of_away_players_keeps_dealing_hands(six):
    tournament = register(sng(structure="hyper"), six)
    table = table_of(tournament)
    for player in six:
        table_services.seat_sit_out(table_id=table.pk, user=player)
    table = table_of(tournament)
    assert hand_state(table).is_over, "everyone away: folded or checked at once"
    assert table.wake_at is not None, "the next hand is due"
    table_services.hand_start(table_id=table.pk, seq=table.seq)
    assert table_of(tournament).hand_number == 2


def test_the_level_is_applied_when_a_hand_starts_and_recorded_on_it(six, time_machine):
    tournament = register(sng(structure="turbo"), six)
    play_to_the_end_of_hand(tournament)
    time_machine.move_to(timezone.now() + timedelta(minutes=5, seconds=1))
    table = table_of(tournament)
    table_services.hand_start(table_id=table.pk, seq=table.seq)

    table = table_of(tournament)
    hand = Hand.objects.get(table=table, number=2)
    assert (hand.level, hand.small_blind, hand.big_blind) == (1, 15, 30)
    assert Hand.objects.get(table=table, number=1).level == 0
    snapshot = selectors.table_snapshot(table_id=table.pk, user=None)
    assert (snapshot["level"], snapshot["small_blind"], snapshot["big_blind"]) == (2, 15, 30)
    assert snapshot["tournament_id"] == tournament.pk
    ends = Tournament.objects.get(pk=tournament.pk).started_at + timedelta(minutes=10)
    assert snapshot["level_ends_at"] == iso(ends)


def test_a_tournament_hands_history_names_the_event_and_level(six):
    tournament = register(sng(), six)
    play_to_the_end_of_hand(tournament)
    hand = Hand.objects.get(table=table_of(tournament), number=1)
    assert f'event = "Felt Tournament #{tournament.pk}' in hand.phh
    assert "level = 1" in hand.phh
    assert "time = " in hand.phh and 'time_zone = "UTC"' in hand.phh


def test_a_member_deleted_mid_sng_is_played_as_away_and_still_gets_a_place(six):
    tournament = register(sng(buy_in=0), six)
    table = table_of(tournament)
    gone = six[0]
    table_services.seats_release(user=gone)  # what the admin's delete does first
    assert Seat.objects.get(table=table, user=gone).is_sitting_out
    gone.delete()

    tournament = play_to_the_end(tournament)

    entries = list(tournament.entries.all())
    assert all(e.place is not None for e in entries)
    assert [e.user_id for e in entries].count(None) == 1


def test_a_player_who_times_out_every_hand_is_blinded_off_and_finishes_last(
    six, settings, time_machine
):
    import engine
    from tables.models import Table

    settings.TABLES_TIME_BANK_SECONDS = 0
    tournament = register(sng(structure="turbo"), six)
    sleeper = six[0]
    # Level 6 (100/200): the blinds bite, and nobody else is ever all-in for them.
    start = Tournament.objects.get(pk=tournament.pk).started_at
    time_machine.move_to(start + timedelta(minutes=25, seconds=1), tick=False)
    out = tournament.entries.get(user=sleeper)
    for _ in range(3000):
        out.refresh_from_db()
        if out.place is not None:
            break
        table = table_of(tournament)
        state = hand_state(table)
        if state.is_over:
            table_services.hand_start(table_id=table.pk, seq=table.seq)
            continue
        seat = Seat.objects.get(table=table, number=state.actor)
        if seat.user == sleeper:  # the clock runs out on them
            past = timezone.now() - timedelta(seconds=1)
            Table.objects.filter(pk=table.pk).update(deadline=past, wake_at=past)
            table_services.table_wake(table_id=table.pk, seq=table.seq)
            continue
        legal = engine.legal_actions(state)
        if state.current_bet <= state.big_blind and legal.min_raise_to is not None:
            action, amount = "raise", legal.min_raise_to  # first in raises, the rest fold
        else:
            action, amount = ("check" if legal.can_check else "fold"), None
        table_services.hand_act(
            table_id=table.pk,
            user=seat.user,
            action=action,
            amount=amount,
            decision=decision_of(table),
        )
    assert out.place == 6, "blinded off first: last place"
    assert Seat.objects.filter(table__tournament=tournament, user=sleeper).get().stack == 0
    assert tournament.entries.filter(place__isnull=True).count() == 5

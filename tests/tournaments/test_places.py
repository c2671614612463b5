"""Rule 19 at a hand's end: who busts with fewer chips finishes lower; equal stacks share."""

from __future__ import annotations

import pytest
from django.db import transaction

import engine
from accounts.points import points_balance
from tables import services as table_services
from tables.services import play as p
from tests.tournaments.helpers import members, moved_for, register, sng, table_of
from tournaments.models import Tournament
from tournaments.prizes import split_prizes
from tournaments.services.results import hand_ended

pytestmark = pytest.mark.django_db


def three_left(make_user, buy_in: int) -> Tournament:
    """A started SNG where three players are already out (places 6, 5, 4)."""
    tournament = register(sng(buy_in=buy_in), members(make_user, 6))
    table = table_of(tournament)
    seats = list(table.seats.order_by("number"))
    for place, seat in zip((6, 5, 4), seats[3:], strict=True):
        tournament.entries.filter(user=seat.user).update(place=place)
        seat.delete()
    return tournament


def end_a_hand(tournament: Tournament, starting: list[int], final: list[int]) -> None:
    """The three left start a hand with ``starting`` chips and end it with ``final``."""
    table = table_of(tournament)
    with transaction.atomic():
        play = p.lock(table.pk)
        numbers = sorted(play.seats)
        stacks: list[int | None] = [None] * table.seat_count
        for number, chips in zip(numbers, starting, strict=True):
            stacks[number] = chips
        state = engine.new_hand(stacks, button=numbers[0], small_blind=10, big_blind=20)
        while not state.is_over:
            state = engine.apply_action(state, engine.Fold())
        play.state = state
        for number, chips in zip(numbers, final, strict=True):
            play.seats[number].stack = chips
        hand_ended(play, tournament)
        p.commit(play)


def test_two_players_busting_with_equal_stacks_share_second_and_split_its_prizes(make_user):
    tournament = three_left(make_user, buy_in=15)  # pool 90: payouts 59 / 31
    end_a_hand(tournament, starting=[2000, 1300, 1300], final=[4600, 0, 0])

    tournament.refresh_from_db()
    results = sorted((e.place, e.prize, e.chips_at_elimination) for e in tournament.entries.all())
    assert results[:3] == [(1, 59, None), (2, 15, 1300), (2, 16, 1300)]
    assert tournament.status == "finished"
    assert moved_for(tournament) == 0, "the odd point is paid, not lost"


def test_of_two_players_busting_in_one_hand_the_shorter_stack_finishes_lower(make_user):
    tournament = three_left(make_user, buy_in=100)
    end_a_hand(tournament, starting=[2000, 1500, 1100], final=[4600, 0, 0])

    tournament.refresh_from_db()
    results = sorted((e.place, e.prize, e.chips_at_elimination) for e in tournament.entries.all())
    assert results[:3] == [(1, 390, None), (2, 210, 1500), (3, 0, 1100)]
    second = tournament.entries.get(place=2)
    assert points_balance(user=second.user) == 10_000 - 100 + 210


def test_one_player_busting_leaves_the_sng_running(make_user):
    tournament = three_left(make_user, buy_in=100)
    end_a_hand(tournament, starting=[2000, 1500, 1100], final=[3100, 1500, 0])

    tournament.refresh_from_db()
    assert tournament.status == "running"
    out = tournament.entries.get(chips_at_elimination=1100)
    assert (out.place, out.prize) == (3, 0)
    assert table_of(tournament).seats.filter(stack=0).count() == 1, "on show until the next hand"
    table = table_of(tournament)
    table_services.hand_start(table_id=table.pk, seq=table.seq)
    assert table_of(tournament).seats.count() == 2, "the busted seat is cleared"


def test_tied_prizes_give_odd_points_to_the_first_seat_left_of_the_button():
    assert split_prizes((59, 31), {"a": 2, "b": 2}, ["b", "a"]) == {"a": 15, "b": 16}
    assert split_prizes((59, 31), {"a": 1, "b": 3, "c": 3}, ["a", "b", "c"]) == {
        "a": 59,
        "b": 0,
        "c": 0,
    }


def test_a_prize_won_by_a_deleted_member_still_has_its_ledger_row(make_user):
    tournament = three_left(make_user, buy_in=100)
    second = table_of(tournament).seats.order_by("number")[1].user
    second.delete()  # their seat plays on as away; their entry keeps the place

    end_a_hand(tournament, starting=[2000, 1500, 1100], final=[4600, 0, 0])

    tournament.refresh_from_db()
    unclaimed = tournament.entries.get(place=2)
    assert (unclaimed.user, unclaimed.prize) == (None, 210)
    rows = tournament.points_entries.filter(user=None, reason="prize")
    assert [row.amount for row in rows] == [210]
    assert moved_for(tournament) == 0, "the ledger of the SNG still sums to zero"

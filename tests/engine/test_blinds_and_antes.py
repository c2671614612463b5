"""Starting a hand: blinds, antes, the button and dealing (rules 8-10, 17)."""

from __future__ import annotations

from random import Random

import pytest

from engine.betting import legal_actions
from engine.cards import DECK, new_deck
from engine.deal import new_hand
from engine.events import AntePosted, BlindPosted, HandStarted, HoleCardsDealt, UncalledBetReturned
from engine.state import NO_SMALL_BLIND
from tests.engine.dealing import deal, play


def test_the_blinds_sit_left_of_the_button() -> None:
    state = deal([100, 100, 100, 100], button=1)
    assert (state.small_blind_seat, state.big_blind_seat) == (2, 3)
    assert state.bets == (0, 0, 1, 2)
    assert state.stacks == (100, 100, 99, 98)


# rule 8
def test_heads_up_the_button_posts_the_small_blind_and_acts_first_before_the_flop() -> None:
    state = deal([100, 100], button=1)
    assert (state.small_blind_seat, state.big_blind_seat) == (1, 0)
    assert legal_actions(state).actor == 1


# rule 8
def test_heads_up_the_button_acts_last_after_the_flop() -> None:
    state = play(deal([100, 100], button=1), "c", "x")
    assert state.street == "flop"
    assert legal_actions(state).actor == 0
    state = play(state, "x")
    assert legal_actions(state).actor == 1


# rule 9
def test_a_short_small_blind_posts_what_it_has_and_is_all_in() -> None:
    state = deal([100, 1, 100], button=0)
    assert BlindPosted(1, "small", 1, True) in state.events
    assert state.is_all_in(1)


# rule 9
def test_a_short_big_blind_still_costs_the_full_blind() -> None:
    state = deal([100, 100, 1, 100], button=0, small_blind=5, big_blind=10)
    assert BlindPosted(2, "big", 1, True) in state.events
    legal = legal_actions(state)
    assert (legal.actor, legal.call_amount, legal.min_raise_to) == (3, 10, 20)


# rule 9
def test_the_part_of_the_full_blind_nobody_matched_goes_back() -> None:
    state = play(deal([100, 100, 1], button=0, small_blind=5, big_blind=10), "c", "f")
    assert state.is_over
    # seat 0 paid the full 10; the folded small blind matched 5 of it
    assert UncalledBetReturned(0, 5) in state.events
    assert sum(state.stacks) == 201


# rule 10
def test_antes_are_posted_before_the_blinds() -> None:
    state = deal([100, 100, 100], button=0, ante=3)
    kinds = [e.kind for e in state.events[1:6]]
    assert kinds == ["ante_posted"] * 3 + ["blind_posted"] * 2
    assert state.contributed == (3, 4, 5)
    assert state.bets == (0, 1, 2)  # antes are dead money, not part of the bet


# rule 10
def test_a_player_short_of_the_ante_posts_it_all_and_is_all_in() -> None:
    state = deal([100, 100, 2, 100], button=0, ante=5)
    assert AntePosted(2, 2, True) in state.events
    assert not any(isinstance(e, BlindPosted) and e.seat == 2 for e in state.events)
    assert state.is_all_in(2)


# rule 10
def test_a_player_all_in_for_part_of_the_ante_wins_only_that_much_from_each() -> None:
    holes = {2: "AsAh", 0: "2c7d", 1: "3c8d", 3: "4h9s"}
    state = deal([100, 100, 2, 100], button=0, ante=5, holes=holes, board="AdAcKs5h6h")
    state = play(state, "c", "c", "c", *"xxxxxxxxx")
    assert state.is_over
    assert state.stacks[2] == 8  # 2 from each of four players, itself included


def test_an_empty_button_seat_is_a_dead_button() -> None:
    state = deal([100, None, 100, 100], button=1)
    assert (state.button, state.small_blind_seat, state.big_blind_seat) == (1, 2, 3)
    assert legal_actions(state).actor == 0


# rule 17
def test_heads_up_the_button_can_be_named_by_its_blind_seats() -> None:
    state = deal([100, 100], button=0, small_blind_seat=0, big_blind_seat=1)
    assert legal_actions(state).actor == 0


def test_a_hand_can_be_played_with_no_small_blind() -> None:
    state = deal([100, 100, 100, 100], button=0, small_blind_seat=NO_SMALL_BLIND, big_blind_seat=2)
    assert state.small_blind_seat is None
    assert [e for e in state.events if isinstance(e, BlindPosted)] == [
        BlindPosted(2, "big", 2, False)
    ]
    assert legal_actions(state).actor == 3
    start = state.events[0]
    assert isinstance(start, HandStarted) and start.small_blind_seat is None


def test_with_no_small_blind_the_big_blind_defaults_to_the_first_player_left_of_the_button() -> (
    None
):
    state = deal([100, 100, 100], button=0, small_blind_seat=NO_SMALL_BLIND)
    assert state.big_blind_seat == 1


def test_blind_seats_can_be_chosen() -> None:
    state = deal([100, 100, 100, 100], button=0, small_blind_seat=2, big_blind_seat=3)
    assert state.bets == (0, 0, 1, 2)


def test_hole_cards_go_one_at_a_time_starting_left_of_the_button() -> None:
    deck = new_deck(Random(7))
    state = new_hand([100, None, 100, 100], button=2, deck=deck)
    dealt = [e for e in state.events if isinstance(e, HoleCardsDealt)]
    assert [e.seat for e in dealt] == [3, 0, 2]
    assert [e.cards for e in dealt] == [(deck[0], deck[3]), (deck[1], deck[4]), (deck[2], deck[5])]
    assert state.hole_cards(0) == (deck[1], deck[4])
    assert state.hole_cards(1) == ()


def test_the_hand_started_event_records_every_parameter_and_the_deck() -> None:
    deck = new_deck(Random(1))
    state = new_hand([50, None, 70], button=2, small_blind=2, big_blind=4, ante=1, deck=deck)
    assert state.events[0] == HandStarted((50, None, 70), 2, 2, 4, 1, 2, 0, deck)


def test_without_a_deck_it_shuffles_with_the_given_generator() -> None:
    first = new_hand([100, 100], button=0, rng=Random(3))
    again = new_hand([100, 100], button=0, rng=Random(3))
    assert first == again
    assert sorted(first.deck) == list(DECK)
    assert sorted(new_hand([100, 100], button=0).deck) == list(DECK)  # secrets shuffle


def test_when_the_blinds_put_everyone_all_in_the_hand_plays_itself_out() -> None:
    state = deal([1, 2], button=0)
    assert state.is_over
    assert sum(state.stacks) == 3
    assert state.street == "over" and len(state.board) == 5


def test_the_players_property_lists_the_seats_dealt_in() -> None:
    state = deal([100, None, 0, 100], button=0)
    assert state.players == (0, 3)
    assert state.seat_count == 4


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"stacks": [100]}, "2 to 10 seats"),
        ({"stacks": [100] * 11}, "2 to 10 seats"),
        ({"stacks": [100, -1, 100]}, "whole numbers"),
        ({"stacks": [100, 2.5, 100]}, "whole numbers"),
        ({"stacks": [100, None, 0]}, "at least two players"),
        ({"button": 3}, "the button must be a seat number from 0 to 2"),
        ({"small_blind": 0}, "blinds must satisfy"),
        ({"small_blind": 3, "big_blind": 2}, "blinds must satisfy"),
        ({"ante": -1}, "blinds must satisfy"),
        ({"small_blind_seat": 7}, "small blind seat must be a seat number"),
        ({"big_blind_seat": -2}, "big blind seat must be a seat number"),
        ({"small_blind_seat": 1, "big_blind_seat": 1}, "one seat cannot post both"),
        ({"stacks": [100, None, 100], "button": 1}, "heads-up the button must be on a player"),
        ({"stacks": [100, 100], "small_blind_seat": 1}, "heads-up the button must be on a player"),
        ({"stacks": [100, None, 100, 100], "big_blind_seat": 1}, "seats with chips"),
        ({"stacks": [100, None, 100, 100], "small_blind_seat": 1}, "seats with chips"),
        ({"deck": (0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)}, "distinct cards"),
        ({"deck": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 52)}, "distinct cards"),
        ({"deck": tuple(range(10))}, "at least 11 cards"),
    ],
)
def test_it_refuses_impossible_hands(kwargs: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {"stacks": [100, 100, 100], "button": 0}
    arguments.update(kwargs)
    with pytest.raises(ValueError, match=message):
        new_hand(**arguments)  # type: ignore[arg-type]


def test_it_does_not_change_the_stacks_it_is_given() -> None:
    stacks: list[int | None] = [100, None, 50]
    new_hand(stacks, button=0, rng=Random(0))
    assert stacks == [100, None, 50]

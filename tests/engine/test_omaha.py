"""Pot-Limit Omaha hands: four cards dealt, pot-limit betting (rule 22), the
showdown by Omaha's two-plus-three (rule 21), and the log, replay and view
that every game shares."""

from __future__ import annotations

import pytest

from engine.actions import IllegalAction, RaiseTo
from engine.betting import apply_action, legal_actions
from engine.cards import DECK, cards, cards_str
from engine.deal import new_hand
from engine.events import CardsShown, HandStarted, PotAwarded, event_from_dict
from engine.games import GAMES, NO_LIMIT_HOLDEM, POT_LIMIT_OMAHA
from engine.replay import replay
from engine.view import view
from tests.engine.dealing import deal, play


def test_four_cards_are_dealt_one_at_a_time_from_the_left_of_the_button() -> None:
    hand = new_hand([100, 100, 100], button=0, deck=DECK, game=POT_LIMIT_OMAHA)
    # dealing order 1, 2, 0: seat 1 gets the 1st, 4th, 7th and 10th cards
    assert hand.holes[1] == (DECK[0], DECK[3], DECK[6], DECK[9])
    assert hand.holes[2] == (DECK[1], DECK[4], DECK[7], DECK[10])
    assert hand.holes[0] == (DECK[2], DECK[5], DECK[8], DECK[11])
    assert hand.next_card == 12
    assert hand.events[0] == HandStarted(
        (100, 100, 100), 0, 1, 2, 0, 1, 2, DECK, game=POT_LIMIT_OMAHA
    )


def test_the_board_follows_the_four_rounds_without_burn_cards() -> None:
    hand = play(new_hand([100, 100], button=0, deck=DECK, game=POT_LIMIT_OMAHA), "c", "x")
    assert hand.board == DECK[8:11]


def test_a_deck_too_short_for_four_cards_each_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 29 cards"):
        new_hand([100] * 6, button=0, deck=DECK[:28], game=POT_LIMIT_OMAHA)
    assert new_hand([100] * 6, button=0, deck=DECK[:17]).next_card == 12  # hold'em needs 17


def test_an_unknown_game_is_refused_naming_the_games() -> None:
    with pytest.raises(ValueError, match="'stud' is not a game: 'nlhe'"):
        new_hand([100, 100], button=0, game="stud")


# rule 22
def test_the_largest_opening_raise_is_the_pot_after_calling() -> None:
    hand = deal([500, 500, 500, 500], button=0, game=POT_LIMIT_OMAHA, small_blind=5, big_blind=10)
    legal = legal_actions(hand)
    # seat 3 calls 10 into 15, making 25: the raise is 25 more, to 35
    assert (legal.actor, legal.min_raise_to, legal.max_raise_to) == (3, 20, 35)


# rule 22
def test_a_re_raise_counts_every_bet_on_the_table() -> None:
    hand = deal([500, 500, 500, 500], button=0, game=POT_LIMIT_OMAHA, small_blind=5, big_blind=10)
    hand = play(hand, 35)
    legal = legal_actions(hand)
    # seat 0: pot 5 + 10 + 35 = 50, call 35 makes 85: raise to 35 + 85 = 120
    assert (legal.actor, legal.min_raise_to, legal.max_raise_to) == (0, 60, 120)
    hand = play(hand, "c")
    # the small blind calls 30 more into 85 (115) and may raise that much more
    assert legal_actions(hand).max_raise_to == 35 + 115


# rule 22
def test_after_the_flop_the_largest_bet_is_the_pot() -> None:
    hand = deal([500, 500, 500], button=0, game=POT_LIMIT_OMAHA, small_blind=5, big_blind=10)
    hand = play(hand, "c", "c", "x")
    assert hand.street == "flop"
    assert (legal_actions(hand).min_raise_to, legal_actions(hand).max_raise_to) == (10, 30)
    hand = play(hand, 30)
    # the next player calls 30 into 60 (90) and may raise 90 more
    assert legal_actions(hand).max_raise_to == 120


# rule 22
def test_a_raise_above_the_pot_is_refused_and_changes_nothing() -> None:
    hand = deal([500, 500, 500], button=0, game=POT_LIMIT_OMAHA, small_blind=5, big_blind=10)
    with pytest.raises(
        IllegalAction, match="raise to 36 is more than the pot limit: the most is 35"
    ):
        apply_action(hand, RaiseTo(36))
    assert legal_actions(hand).max_raise_to == 35
    assert hand.bets == (0, 5, 10)


# rules 3 and 22
def test_a_stack_smaller_than_the_pot_may_go_all_in_and_no_further() -> None:
    hand = deal([25, 500], button=0, game=POT_LIMIT_OMAHA, small_blind=5, big_blind=10)
    # the pot limit would be 30; the small blind has 25
    assert legal_actions(hand).max_raise_to == 25
    with pytest.raises(IllegalAction, match="raise to 26 is more than you have: the most is 25"):
        apply_action(hand, RaiseTo(26))
    assert play(hand, 25).stacks == (0, 490)


# rule 22
def test_hold_em_stays_no_limit() -> None:
    hand = deal([500, 500, 500], button=0, small_blind=5, big_blind=10)
    assert legal_actions(hand).max_raise_to == 500


# rule 21
def test_the_showdown_values_two_hole_cards_with_three_of_the_board() -> None:
    # seat 0 holds one spade on a four-spade board: no flush in Omaha; seat 1's
    # two kings with the board's king make three of a kind
    hand = deal(
        [100, 100],
        button=0,
        holes={0: "AsQdJcTh", 1: "KhKd7c2d"},
        board="Ks9s5s4s3h",
        game=POT_LIMIT_OMAHA,
    )
    hand = play(hand, "c", "x", "x", "x", "x", "x", "x", "x")
    assert hand.is_over
    award = next(e for e in hand.events if isinstance(e, PotAwarded))
    assert award.shares == ((1, 4),)
    assert award.description == "Three of a Kind, Kings"
    assert hand.stacks == (98, 102)


# rule 21
def test_a_tie_splits_the_pot_under_omaha_rules() -> None:
    # both play the board's broadway with two hole cards of their own
    hand = deal(
        [100, 100, 100],
        button=0,
        holes={1: "AhKd2c3c", 2: "AdKh4c5c"},
        board="QsJsTd7h6h",
        game=POT_LIMIT_OMAHA,
    )
    hand = play(hand, "f", "c", "x", "x", "x", "x", "x", "x", "x")
    award = next(e for e in hand.events if isinstance(e, PotAwarded))
    assert sorted(award.shares) == [(1, 2), (2, 2)]
    assert award.description == "Straight, Ace High"


def test_an_all_in_shows_four_cards_and_side_pots_are_paid_by_omaha_value() -> None:
    hand = deal(
        [20, 100, 100],
        button=0,
        holes={0: "AsAhKsKh", 1: "2c3d4h5s", 2: "QcQdJcJd"},
        board="AdKdQs7c2h",
        game=POT_LIMIT_OMAHA,
        small_blind=5,
        big_blind=10,
    )
    hand = play(hand, 20, "c", "c")  # seat 0 all-in; seats 1 and 2 play on
    hand = play(hand, 20, "c", "x", "x", "x", "x")
    assert hand.is_over
    shown = {e.seat: cards_str(e.cards) for e in hand.events if isinstance(e, CardsShown)}
    assert shown[0] == "AsAhKsKh"
    main, side = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert (main.shares, main.description) == (((0, 60),), "Three of a Kind, Aces")
    assert (side.shares, side.description) == (((2, 40),), "Three of a Kind, Queens")
    assert hand.stacks == (60, 60, 100)


def test_an_omaha_hand_replays_from_its_log_and_its_events_round_trip() -> None:
    hand = play(
        deal([300, 300, 300], button=1, game=POT_LIMIT_OMAHA), 7, "c", "c", "x", 21, "f", "c"
    )
    assert replay(hand.events) == hand
    read = [event_from_dict(event.to_dict()) for event in hand.events]
    assert read == list(hand.events)
    assert hand.events[0].to_dict()["game"] == POT_LIMIT_OMAHA


def test_a_log_written_before_omaha_is_read_as_hold_em() -> None:
    hand = new_hand([100, 100], button=0, deck=DECK)
    older = hand.events[0].to_dict()
    del older["game"]
    assert event_from_dict(older) == hand.events[0]
    assert hand.game == NO_LIMIT_HOLDEM


def test_each_player_sees_their_own_four_cards_and_nobody_else_s() -> None:
    hand = deal([100, 100, 100], button=0, holes={1: "AsKsQsJs"}, game=POT_LIMIT_OMAHA)
    assert view(hand, 1)["hole_cards"] == ["As", "Ks", "Qs", "Js"]
    assert [seat["cards"] for seat in view(hand, 2)["seats"]][1] is None
    assert view(hand, None)["hole_cards"] is None
    assert all(seat["cards"] is None for seat in view(hand, None)["seats"])
    assert cards("AsKsQsJs") == hand.holes[1]


def test_an_omaha_hand_is_named_by_its_best_two_cards_before_the_flop() -> None:
    strength = GAMES[POT_LIMIT_OMAHA].strength
    assert strength(cards("9s9h2c3d"), ()) == "Pair of Nines"
    assert strength(cards("As2dKd7c"), ()) == "High Card, Ace"
    # after the flop, two hole cards and three of the board: the four aces held are a pair
    assert strength(cards("AsAhAdAc"), cards("Kd7h2s")) == "Pair of Aces"


# rule 21
def test_the_five_cards_an_omaha_hand_plays_hold_exactly_two_of_the_hole() -> None:
    best = GAMES[POT_LIMIT_OMAHA].best_five(cards("AsQdJcTh"), cards("Ks9s5s4s3h"))
    assert len(set(best) & set(cards("AsQdJcTh"))) == 2
    assert set(best) - set(cards("AsQdJcTh")) <= set(cards("Ks9s5s4s3h"))
    holdem = GAMES[NO_LIMIT_HOLDEM]
    assert cards_str(holdem.best_five(cards("AsKs"), cards("Qs Js Ts 2d 3c"))) == "AsKsQsJsTs"
    assert holdem.strength(cards("AsKs"), ()) == "High Card, Ace"

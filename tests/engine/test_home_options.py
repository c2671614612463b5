"""The home-game options of a hand: the straddle (rule 23), the bomb pot
(rule 24) and running the board twice (rule 25)."""

from __future__ import annotations

import pytest

from engine.actions import IllegalAction, RaiseTo
from engine.betting import apply_action, legal_actions
from engine.cards import DECK, cards, cards_str
from engine.deal import new_hand, under_the_gun
from engine.events import (
    AntePosted,
    BlindPosted,
    BoardDealt,
    PotAwarded,
    RunoutsChosen,
    event_from_dict,
)
from engine.games import POT_LIMIT_OMAHA
from engine.replay import replay
from engine.state import HandState
from engine.streets import choose_runouts
from engine.view import view
from tests.engine.dealing import play


def stacked(*dealt: str) -> tuple[int, ...]:
    """A deck dealing ``dealt`` first (cards in dealing order), the rest after."""
    front = cards("".join(dealt))
    return (*front, *[c for c in DECK if c not in front])


# ---------------------------------------------------------------- rule 23


def test_the_straddle_posts_two_big_blinds_and_acts_last_before_the_flop() -> None:
    hand = new_hand([100] * 4, button=0, deck=DECK, straddle=True)
    assert hand.straddle_seat == 3
    assert BlindPosted(3, "straddle", 4, False) in hand.events
    assert hand.bets == (0, 1, 2, 4)
    legal = legal_actions(hand)
    assert (legal.actor, legal.call_amount, legal.min_raise_to) == (0, 4, 8)
    hand = play(hand, "c", "c", "c")
    legal = legal_actions(hand)
    # the straddler has the option, like a big blind in an unraised pot
    assert (legal.actor, legal.can_check, legal.min_raise_to) == (3, True, 8)
    assert play(hand, "x").street == "flop"


def test_a_raise_of_the_straddle_must_add_at_least_the_straddle() -> None:
    hand = new_hand([100] * 4, button=0, deck=DECK, straddle=True)
    with pytest.raises(IllegalAction, match="raise to 6 is below the minimum raise to 8"):
        apply_action(hand, RaiseTo(6))
    assert legal_actions(play(hand, 10)).min_raise_to == 16


def test_the_straddler_is_the_first_player_left_of_the_big_blind() -> None:
    stacks = [100, None, 100, 100, None, 100]
    assert under_the_gun(stacks, big_blind_seat=3) == 5
    assert under_the_gun(stacks, big_blind_seat=5) == 0
    hand = new_hand(stacks, button=0, deck=DECK, straddle=True)
    assert (hand.small_blind_seat, hand.big_blind_seat, hand.straddle_seat) == (2, 3, 5)
    assert legal_actions(hand).actor == 0


def test_three_handed_the_button_straddles_and_the_small_blind_acts_first() -> None:
    hand = new_hand([100] * 3, button=0, deck=DECK, straddle=True)
    assert (hand.straddle_seat, legal_actions(hand).actor) == (0, 1)


@pytest.mark.parametrize(
    ("stacks", "options", "message"),
    [
        ([100, None, 100], {}, "a straddle needs at least three players"),
        ([100, 100, 3], {}, "seat 2 cannot cover a straddle of 4"),
        ([100, 100, 5], {"ante": 2}, "seat 2 cannot cover a straddle of 4"),
        ([100, 100, 100], {"bomb_pot": 5}, "has no straddle"),
    ],
)
def test_a_straddle_that_cannot_be_posted_is_refused(
    stacks: list[int], options: dict[str, int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        new_hand(stacks, button=2, deck=DECK, straddle=True, **options)  # type: ignore[arg-type]


# rules 9 and 23
def test_with_a_short_big_blind_the_full_straddle_is_still_owed() -> None:
    hand = new_hand([100, 100, 1, 100], button=0, deck=DECK, straddle=True)
    assert hand.bets == (0, 1, 1, 4)
    assert legal_actions(hand).call_amount == 4


# ---------------------------------------------------------------- rule 24


def test_a_bomb_pot_takes_everyone_s_stake_and_starts_on_the_flop() -> None:
    hand = new_hand([100, 100, 100], button=0, deck=DECK, bomb_pot=10, ante=1)
    assert [e for e in hand.events if isinstance(e, BlindPosted)] == []
    stakes = [e for e in hand.events if isinstance(e, AntePosted)]
    assert [(e.seat, e.amount) for e in stakes] == [(1, 10), (2, 10), (0, 10)]
    assert hand.stacks == (90, 90, 90)
    assert hand.street == "flop"
    assert hand.board == DECK[6:9]
    legal = legal_actions(hand)
    # the first player left of the button opens; the smallest bet is the big blind
    assert (legal.actor, legal.can_check, legal.min_raise_to) == (1, True, 2)
    assert [p.amount for p in hand.pots] == [30]


def test_a_bomb_pot_has_no_preflop_decision_to_record() -> None:
    hand = new_hand([100, 100, 100], button=0, deck=DECK, bomb_pot=10)
    assert not any(e.kind == "player_acted" for e in hand.events)
    assert replay(hand.events) == hand


# rules 10 and 24
def test_a_player_short_of_the_bomb_pot_is_all_in_for_what_they_have() -> None:
    hand = new_hand([4, 100, 100], button=2, deck=DECK, bomb_pot=10)
    assert hand.stacks == (0, 90, 90)
    hand = play(hand, 20, "c", "x", "x", "x", "x")
    assert hand.is_over
    main, side = [e for e in hand.events if isinstance(e, PotAwarded)][:2]
    assert (main.amount, main.eligible) == (12, (0, 1, 2))
    assert (side.amount, side.eligible) == (52, (1, 2))
    assert sum(hand.stacks) == 204


def test_a_bomb_pot_everyone_is_all_in_for_runs_out_at_once() -> None:
    hand = new_hand([10, 10, 30], button=0, deck=DECK, bomb_pot=10)
    assert hand.is_over
    assert len(hand.board) == 5
    assert sum(hand.stacks) == 50


@pytest.mark.parametrize("bomb_pot", [-5, 2.5, "10"])
def test_a_bomb_pot_that_is_not_a_number_of_chips_is_refused(bomb_pot: object) -> None:
    with pytest.raises(ValueError, match="a bomb pot is a whole number of chips"):
        new_hand([100, 100], button=0, bomb_pot=bomb_pot)  # type: ignore[arg-type]


# ---------------------------------------------------------------- rule 25


def all_in_preflop() -> HandState:
    """Three players: seat 0 (aces) moves in, seat 1 folds its small blind, seat 2
    (kings) calls; the first board favours the aces, the second the kings."""
    deck = stacked("3c Ks As", "8d Kh Ah", "2h7d9hTc3s", "Kd2d7c8h4s")  # seats 1, 2, 0
    hand = new_hand([100, 100, 100], button=0, deck=deck, run_it_twice=True)
    return play(hand, 100, "f", "c")


def test_players_all_in_before_the_river_are_asked_before_the_board_is_dealt() -> None:
    hand = all_in_preflop()
    assert hand.runout_pending
    assert not hand.is_over
    assert hand.board == ()
    assert legal_actions(hand).actor is None
    seen = view(hand, None)
    assert seen["runout_pending"] is True
    assert [seat["cards"] for seat in seen["seats"]] == [["As", "Ah"], None, ["Ks", "Kh"]]
    with pytest.raises(IllegalAction, match="the players are choosing the run-outs"):
        apply_action(hand, RaiseTo(5))


def test_run_twice_each_board_wins_half_and_the_odd_chip_goes_with_the_first() -> None:
    hand = choose_runouts(all_in_preflop(), 2)
    assert hand.is_over
    assert cards_str(hand.board) == "2h7d9hTc3s"
    assert cards_str(hand.second_board) == "Kd2d7c8h4s"
    awards = [(e.run, e.amount, e.shares) for e in hand.events if isinstance(e, PotAwarded)]
    assert awards == [(0, 101, ((0, 101),)), (1, 100, ((2, 100),))]
    assert hand.stacks == (101, 99, 100)
    seen = view(hand, 1)
    assert (seen["board"], seen["second_board"]) == (
        ["2h", "7d", "9h", "Tc", "3s"],
        ["Kd", "2d", "7c", "8h", "4s"],
    )


def test_run_once_the_board_is_dealt_as_usual() -> None:
    hand = choose_runouts(all_in_preflop(), 1)
    assert RunoutsChosen(1) in hand.events
    assert hand.second_board == ()
    assert hand.stacks == (201, 99, 0)


def test_the_second_board_keeps_the_cards_already_dealt() -> None:
    deck = stacked("3c Ks As", "8d Kh Ah", "2h7d9hTc3s", "Kd2d")
    hand = new_hand([100, 100, 100], button=0, deck=deck, run_it_twice=True)
    hand = play(hand, "c", "f", "x", 98, "c")  # all-in on the flop
    assert hand.runout_pending and hand.street == "flop"
    hand = choose_runouts(hand, 2)
    assert hand.second_board[:3] == hand.board[:3] == cards("2h7d9h")
    assert cards_str(hand.second_board[3:]) == "Kd2d"
    second = [e for e in hand.events if isinstance(e, BoardDealt) and e.run == 1]
    assert [(e.street, cards_str(e.cards)) for e in second] == [("turn", "Kd"), ("river", "2d")]


def test_an_all_in_on_the_river_has_nothing_left_to_run() -> None:
    hand = new_hand([100, 100], button=0, deck=DECK, run_it_twice=True)
    hand = play(hand, "c", "x", "x", "x", "x", "x", 98, "c")
    assert hand.is_over and hand.second_board == ()


def test_without_the_option_an_all_in_runs_out_at_once() -> None:
    deck = stacked("KsAs", "KhAh", "2h7d9hTc3s")
    hand = play(new_hand([100, 100], button=0, deck=deck), 100, "c")
    assert hand.is_over and not hand.runout_pending


@pytest.mark.parametrize("count", [0, 3, "2"])
def test_a_run_out_count_other_than_one_or_two_is_refused(count: object) -> None:
    with pytest.raises(IllegalAction, match="the board runs once or twice"):
        choose_runouts(all_in_preflop(), count)  # type: ignore[arg-type]


def test_choosing_run_outs_when_nobody_is_asked_is_refused() -> None:
    with pytest.raises(IllegalAction, match="nobody is choosing"):
        choose_runouts(new_hand([100, 100], button=0, deck=DECK, run_it_twice=True), 2)


def test_a_deck_too_short_for_a_second_board_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 16 cards"):
        new_hand([100, 100, 100], button=0, deck=DECK[:15], run_it_twice=True)


def test_a_hand_run_twice_replays_and_its_events_round_trip() -> None:
    hand = choose_runouts(all_in_preflop(), 2)
    assert replay(hand.events) == hand
    assert [event_from_dict(e.to_dict()) for e in hand.events] == list(hand.events)
    declined = choose_runouts(all_in_preflop(), 1)
    assert replay(declined.events) == declined
    assert replay(hand.events[:-10]) == all_in_preflop()


def test_a_forged_run_out_count_in_a_log_is_refused_naming_the_event() -> None:
    hand = choose_runouts(all_in_preflop(), 2)
    index = hand.events.index(RunoutsChosen(2))
    forged = (*hand.events[:index], RunoutsChosen(3), *hand.events[index + 1 :])
    with pytest.raises(IllegalAction, match=f"event {index} \\(runouts_chosen\\)"):
        replay(forged)


def test_omaha_run_twice_values_each_board_by_omaha_rules() -> None:
    hand = new_hand([100, 100], button=0, deck=DECK, game=POT_LIMIT_OMAHA, run_it_twice=True)
    hand = play(hand, 6, 18, 54, 100, "c")  # pot-sized raises, then all-in
    assert hand.runout_pending
    hand = choose_runouts(hand, 2)
    assert hand.is_over
    assert sum(hand.stacks) == 200
    assert {e.run for e in hand.events if isinstance(e, PotAwarded)} == {0, 1}

"""Legal actions and their validation: docs/rules.md rules 1-6."""

from __future__ import annotations

import pytest

from engine.actions import Call, Check, Fold, IllegalAction, RaiseTo
from engine.betting import apply_action, legal_actions
from engine.events import PlayerActed
from engine.state import HandState
from tests.engine.dealing import deal, play


def to_flop(stacks: list[int | None], button: int = 0, **options: int) -> HandState:
    """Everyone calls the big blind, the big blind checks: the flop is dealt."""
    state = deal(stacks, button, None, "", **options)
    while state.street == "preflop":
        legal = legal_actions(state)
        state = apply_action(state, Check() if legal.can_check else Call())
    return state


def test_it_opens_with_the_player_left_of_the_big_blind() -> None:
    state = deal([100, 100, 100, 100], button=0)
    legal = legal_actions(state)
    assert legal.actor == 3
    assert legal.call_amount == 2
    assert not legal.can_check
    assert legal.can_fold


def test_the_big_blind_gets_the_option_to_raise_a_limped_pot() -> None:
    state = play(deal([100, 100, 100], button=0), "c", "c")
    legal = legal_actions(state)
    assert (legal.actor, legal.can_check, legal.min_raise_to) == (2, True, 4)


def test_after_the_flop_the_first_live_player_left_of_the_button_acts() -> None:
    state = to_flop([100, 100, 100, 100], button=2)
    assert state.street == "flop"
    assert len(state.board) == 3
    assert legal_actions(state).actor == 3


# rule 1
def test_the_smallest_opening_bet_is_the_big_blind() -> None:
    state = to_flop([100, 100, 100], big_blind=10, small_blind=5)
    assert legal_actions(state).min_raise_to == 10
    with pytest.raises(IllegalAction, match="bet of 9 is below the minimum bet of 10"):
        apply_action(state, RaiseTo(9))


# rule 1
def test_a_player_with_less_than_the_big_blind_may_bet_it_all() -> None:
    state = to_flop([100, 16, 100], big_blind=10, small_blind=5, button=2)
    legal = legal_actions(state)
    assert legal.actor == 0
    state = play(state, "x")
    legal = legal_actions(state)
    assert (legal.actor, legal.min_raise_to, legal.max_raise_to) == (1, 6, 6)
    state = play(state, 6)
    assert state.events[-1] == PlayerActed(1, "flop", "bet", 6, 6, True)


# rule 2
def test_a_raise_must_add_at_least_the_largest_bet_or_raise_of_the_street() -> None:
    state = to_flop([1000, 1000, 1000])
    state = play(state, 10, 30)  # bet 10, raise by 20
    legal = legal_actions(state)
    assert legal.min_raise_to == 50
    with pytest.raises(IllegalAction, match="raise to 49 is below the minimum raise to 50"):
        apply_action(state, RaiseTo(49))
    state = play(state, 50)
    assert legal_actions(state).min_raise_to == 70


def test_before_the_flop_the_minimum_raise_is_to_twice_the_big_blind() -> None:
    state = deal([1000, 1000, 1000], big_blind=10, small_blind=5)
    assert legal_actions(state).min_raise_to == 20
    state = play(state, 35)
    assert legal_actions(state).min_raise_to == 60


# rule 3
def test_a_player_may_call_all_in_for_less_than_the_bet() -> None:
    state = play(deal([1000, 30, 1000], button=0), "c", "c", "x")  # flop; seat 1 has 28
    state = play(state, "x", 100)
    state = play(state, "f")
    legal = legal_actions(state)
    assert (legal.actor, legal.call_amount, legal.min_raise_to) == (1, 28, None)
    state = apply_action(state, Call())
    assert PlayerActed(1, "flop", "call", 28, 28, True) in state.events


# rule 3
def test_a_player_may_raise_all_in_for_less_than_a_minimum_raise() -> None:
    state = deal([1000, 1000, 50, 1000], button=0)
    state = play(state, 40)  # seat 3 raises to 40; the minimum re-raise is to 78
    legal = legal_actions(state)
    assert (legal.actor, legal.min_raise_to, legal.max_raise_to) == (0, 78, 1000)
    state = play(state, "f", "f")
    legal = legal_actions(state)
    assert (legal.actor, legal.min_raise_to, legal.max_raise_to) == (2, 50, 50)
    with pytest.raises(IllegalAction, match="raise to 45 is below the minimum raise to 50"):
        apply_action(state, RaiseTo(45))
    with pytest.raises(IllegalAction, match="the most is 50"):
        apply_action(state, RaiseTo(51))
    state = apply_action(state, RaiseTo(50))
    assert state.events[-1] == PlayerActed(2, "preflop", "raise", 48, 50, True)


def short_all_in_on_the_flop() -> HandState:
    """Blinds 50/100; on the flop seat 1 bets 100, seat 2 calls, seat 3 is all-in for 150."""
    stacks: list[int | None] = [5000, 5000, 5000, 250, 5000]
    state = to_flop(stacks, button=0, small_blind=50, big_blind=100)
    return play(state, 100, "c", 150)


# rule 4
def test_a_short_all_in_does_not_reopen_the_betting_for_players_who_acted() -> None:
    state = short_all_in_on_the_flop()
    state = play(state, "c", "f")  # seat 4 calls 150, seat 0 folds: back to seat 1
    legal = legal_actions(state)
    assert (legal.actor, legal.call_amount) == (1, 50)
    assert legal.min_raise_to is None and legal.max_raise_to is None
    with pytest.raises(IllegalAction, match="less than a full raise, so you can only call or fold"):
        apply_action(state, RaiseTo(400))


# rule 6
def test_a_player_yet_to_act_may_raise_a_short_all_in_by_a_full_raise() -> None:
    state = short_all_in_on_the_flop()
    legal = legal_actions(state)
    assert legal.actor == 4
    assert legal.min_raise_to == 250  # the all-in (150) plus the last full raise (100)
    state = play(state, 250)
    assert legal_actions(state).min_raise_to == 350


# rule 5
def test_short_all_ins_that_add_up_to_a_full_raise_reopen_the_betting() -> None:
    # The TDA example: blinds 50/100, A bets 100, B all-in 125, C calls,
    # D all-in 200, E calls: A faces a full raise of 100 and may raise again.
    stacks: list[int | None] = [5000, 5000, 225, 5000, 300, 5000]
    state = to_flop(stacks, button=0, small_blind=50, big_blind=100)
    state = play(state, 100, 125, "c", 200, "c", "f")  # seats 1..5 then 0 folds
    legal = legal_actions(state)
    assert legal.actor == 1
    assert (legal.min_raise_to, legal.max_raise_to) == (300, 4900)
    state = play(state, "c")
    legal = legal_actions(state)
    assert legal.actor == 3  # called 125, faces only 75 more: call or fold
    assert legal.min_raise_to is None


def test_nobody_may_raise_when_everyone_else_is_all_in() -> None:
    state = play(deal([100, 1000, 1000], button=0), 100, "f")
    legal = legal_actions(state)
    assert (legal.actor, legal.call_amount, legal.min_raise_to) == (2, 98, None)
    with pytest.raises(IllegalAction, match="everyone else is all-in"):
        apply_action(state, RaiseTo(200))


def test_a_player_who_cannot_cover_the_bet_cannot_raise() -> None:
    state = play(deal([1000, 1000, 100], button=0), 500)
    state = play(state, "f")
    with pytest.raises(IllegalAction, match="you cannot raise: calling already puts you all-in"):
        apply_action(state, RaiseTo(100))


def test_checking_facing_a_bet_is_refused() -> None:
    state = deal([100, 100, 100])
    with pytest.raises(IllegalAction, match="you cannot check: it costs 2 to call"):
        apply_action(state, Check())


def test_calling_with_nothing_to_call_is_refused() -> None:
    state = to_flop([100, 100, 100])
    with pytest.raises(IllegalAction, match="nothing to call: check or bet instead"):
        apply_action(state, Call())


def test_folding_when_checking_is_free_is_refused() -> None:
    state = to_flop([100, 100, 100])
    assert not legal_actions(state).can_fold
    with pytest.raises(IllegalAction, match="check instead of folding"):
        apply_action(state, Fold())


def test_a_raise_that_is_not_a_whole_number_is_refused() -> None:
    state = deal([100, 100, 100])
    with pytest.raises(IllegalAction, match="not a whole number"):
        apply_action(state, RaiseTo(4.5))  # type: ignore[arg-type]


def test_something_that_is_not_an_action_is_refused() -> None:
    state = deal([100, 100, 100])
    with pytest.raises(IllegalAction, match="is not an action"):
        apply_action(state, "raise")  # type: ignore[arg-type]


def test_no_action_is_allowed_once_the_hand_is_over() -> None:
    state = play(deal([100, 100, 100]), "f", "f")
    assert state.is_over
    legal = legal_actions(state)
    assert legal.actor is None and not legal.can_fold and not legal.can_raise
    for action in (Fold(), Check(), Call(), RaiseTo(10)):
        with pytest.raises(IllegalAction, match="the hand is over"):
            apply_action(state, action)


def test_each_decision_is_logged_with_its_kind_amount_and_total() -> None:
    state = play(deal([100, 100, 100], button=0), 6, "c", "f")
    acted = [e for e in state.events if isinstance(e, PlayerActed)]
    assert acted == [
        PlayerActed(0, "preflop", "raise", 6, 6, False),
        PlayerActed(1, "preflop", "call", 5, 6, False),
        PlayerActed(2, "preflop", "fold", 0, 2, False),
    ]
    state = play(state, "x", 10, 30)
    acted = [e for e in state.events if isinstance(e, PlayerActed)][3:]
    assert [(e.action, e.amount, e.total) for e in acted] == [
        ("check", 0, 0),
        ("bet", 10, 10),
        ("raise", 30, 30),
    ]

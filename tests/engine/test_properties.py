"""Properties that hold in every hand (hypothesis): rules 3, 7, 9-11, 16 and the API contract."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import Action, Call, Check, Fold, IllegalAction, RaiseTo
from engine.betting import apply_action, legal_actions
from engine.events import PotAwarded, event_from_dict
from engine.replay import replay, replay_onward
from engine.state import HandState
from tests.engine.dealing import offered_actions
from tests.engine.strategies import EXAMPLES, hands, play_out


def total_chips(state: HandState) -> int:
    return sum(chips for chips in state.starting_stacks if chips)


def refused_actions(state: HandState) -> list[Action]:
    """Actions ``legal_actions`` does not offer right now."""
    legal = legal_actions(state)
    refused: list[Action] = [Call(), Fold()] if legal.can_check else [Check()]
    if legal.min_raise_to is None or legal.max_raise_to is None:
        refused.append(RaiseTo(state.current_bet + 10 * state.big_blind))
    else:
        refused.append(RaiseTo(legal.max_raise_to + 1))
        if legal.min_raise_to < legal.max_raise_to:  # below the minimum and not all-in
            refused.append(RaiseTo(legal.min_raise_to - 1))
    return refused


# rule 16
@EXAMPLES
@given(hands(), st.data())
def test_chips_are_conserved_after_every_action(state: HandState, data: st.DataObject) -> None:
    total = total_chips(state)
    for step in play_out(data, state):
        pots = sum(pot.amount for pot in step.pots)
        assert sum(step.stacks) + sum(step.bets) + pots == total
        assert all(chips >= 0 for chips in step.stacks)
    assert step.is_over and step.pots == ()
    assert sum(step.stacks) == total


@EXAMPLES
@given(hands(), st.data())
def test_every_offered_action_applies_and_every_other_is_refused(
    state: HandState, data: st.DataObject
) -> None:
    for step in play_out(data, state):
        if step.is_over:
            for action in (Fold(), Check(), Call(), RaiseTo(10)):
                with pytest.raises(IllegalAction):
                    apply_action(step, action)
            continue
        for action in offered_actions(step, 500):
            after = apply_action(step, action)
            assert after.events[: len(step.events)] == step.events
        for action in refused_actions(step):
            with pytest.raises(IllegalAction):
                apply_action(step, action)


# rule 20
@EXAMPLES
@given(hands(), st.data())
def test_the_actor_can_always_fold_or_check(state: HandState, data: st.DataObject) -> None:
    for step in play_out(data, state):
        legal = legal_actions(step)
        assert step.is_over or legal.can_check != legal.can_fold


# rule 3
@EXAMPLES
@given(hands(), st.data())
def test_the_call_amount_never_exceeds_the_stack_and_all_in_is_always_possible(
    state: HandState, data: st.DataObject
) -> None:
    for step in play_out(data, state):
        legal = legal_actions(step)
        if legal.actor is None:
            continue
        stack = step.stacks[legal.actor]
        assert 0 <= legal.call_amount <= stack
        all_in = step.bets[legal.actor] + stack
        assert legal.max_raise_to in (None, all_in)
        if legal.min_raise_to is not None:
            assert legal.min_raise_to <= all_in


@EXAMPLES
@given(hands(), st.data())
def test_replaying_the_event_log_rebuilds_the_same_state(
    state: HandState, data: st.DataObject
) -> None:
    for step in play_out(data, state):
        assert replay(step.events) == step


@EXAMPLES
@given(hands(), st.data())
def test_a_state_kept_at_any_step_replays_onward_to_the_same_end(
    state: HandState, data: st.DataObject
) -> None:
    steps = list(play_out(data, state))
    final = steps[-1]
    for kept in steps:
        assert replay_onward(kept, final.events) == final


@EXAMPLES
@given(hands(), st.data())
def test_every_event_survives_a_trip_through_json(state: HandState, data: st.DataObject) -> None:
    *_, final = play_out(data, state)
    for event in final.events:
        assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event


# rule 7
@EXAMPLES
@given(hands(), st.data())
def test_nobody_wins_back_more_than_the_others_matched(
    state: HandState, data: st.DataObject
) -> None:
    *_, final = play_out(data, state)
    for seat in final.players:
        others = [final.contributed[s] for s in final.players if s != seat]
        assert final.contributed[seat] <= max(others)


@EXAMPLES
@given(hands(), st.data())
def test_applying_an_action_leaves_the_previous_state_untouched(
    state: HandState, data: st.DataObject
) -> None:
    for step in play_out(data, state):
        if step.is_over:
            break
        snapshot = replay(step.events)
        for action in offered_actions(step, 250):
            apply_action(step, action)
        assert step == snapshot


@EXAMPLES
@given(hands(), st.data())
def test_every_state_is_a_complete_frozen_dataclass_value(
    state: HandState, data: st.DataObject
) -> None:
    names = {field.name for field in dataclasses.fields(HandState)}
    for step in play_out(data, state):
        assert vars(step).keys() == names  # every field, and nothing else
        assert dataclasses.replace(step) == step
        with pytest.raises(dataclasses.FrozenInstanceError):
            step.actor = None  # type: ignore[misc]


# rules 9, 10 and 11
@EXAMPLES
@given(st.one_of(hands(), hands(short_big_blind=True)), st.data())
def test_nobody_wins_from_an_opponent_more_than_they_matched(
    state: HandState, data: st.DataObject
) -> None:
    *_, final = play_out(data, state)
    for seat in final.players:
        start = final.starting_stacks[seat] or 0
        won = final.stacks[seat] - (start - final.contributed[seat])  # paid back from pots
        mine = final.contributed[seat]
        reachable = sum(min(final.contributed[other], mine) for other in final.players)
        assert won <= reachable, f"seat {seat} won {won}, could win at most {reachable}"


# rule 11
@EXAMPLES
@given(st.one_of(hands(), hands(short_big_blind=True)), st.data())
def test_every_pot_can_be_won_by_a_live_player(state: HandState, data: st.DataObject) -> None:
    for step in play_out(data, state):
        for pot in step.pots:
            assert pot.eligible and all(step.is_live(seat) for seat in pot.eligible)
    for award in (event for event in step.events if isinstance(event, PotAwarded)):
        assert award.eligible and all(step.is_live(seat) for seat, _ in award.shares)

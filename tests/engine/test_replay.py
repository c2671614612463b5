"""Rebuilding hands from their event logs, and reading logs back from JSON."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.actions import IllegalAction
from engine.events import (
    BlindPosted,
    HandStarted,
    PlayerActed,
    UncalledBetReturned,
    event_from_dict,
)
from engine.replay import replay, replay_onward
from engine.state import NO_SMALL_BLIND, HandState
from tests.engine.dealing import deal, play


def a_played_hand() -> HandState:
    return play(deal([100, 80, 60], button=0, ante=2), 10, "c", "c", 20, "c", "f", "x", "x")


def test_replay_rebuilds_a_hand_at_every_step() -> None:
    state = deal([100, 80, 60], button=0, ante=2)
    for step in (10, "c", "c", 20, "c", "f", "x", "x", "x", "x"):
        assert replay(state.events) == state
        state = play(state, step)
    assert state.is_over
    assert replay(state.events) == state


def test_replay_works_from_the_json_log() -> None:
    state = a_played_hand()
    stored = json.dumps([e.to_dict() for e in state.events])
    assert replay([event_from_dict(d) for d in json.loads(stored)]) == state


def test_replay_keeps_a_dead_small_blind() -> None:
    state = play(deal([100, 100, 100], button=0, small_blind_seat=NO_SMALL_BLIND), "c", "c")
    assert replay(state.events) == state


def test_a_log_must_start_with_the_hand() -> None:
    state = a_played_hand()
    with pytest.raises(ValueError, match="must start with a hand_started event"):
        replay(state.events[1:])
    with pytest.raises(ValueError, match="must start with a hand_started event"):
        replay([])


def test_a_tampered_log_is_refused_naming_the_event() -> None:
    state = a_played_hand()
    events = list(state.events)
    index = next(i for i, e in enumerate(events) if e.kind == "blind_posted")
    blind = events[index]
    assert isinstance(blind, BlindPosted)
    events[index] = dataclasses.replace(blind, amount=99)
    with pytest.raises(ValueError, match=f"event {index} \\(blind_posted\\) does not match"):
        replay(events)


def test_an_illegal_decision_in_a_log_is_refused_naming_the_event() -> None:
    state = deal([100, 100, 100], button=0)
    bad = PlayerActed(0, "preflop", "raise", 3, 3, False)
    with pytest.raises(IllegalAction, match="event 6 \\(raise\\): raise to 3 is below"):
        replay([*state.events, bad])


def test_a_log_cut_in_the_middle_of_dealing_is_refused() -> None:
    state = play(deal([100, 100, 100], button=0), "c", "c", "x")
    with pytest.raises(ValueError, match="stops at event"):
        replay(state.events[:-1])


def test_an_event_the_hand_never_produced_is_refused() -> None:
    state = play(deal([100, 100, 100], button=0), "f", "f")
    extra = UncalledBetReturned(2, 1)
    with pytest.raises(ValueError, match="event 11 \\(uncalled_bet_returned\\) was not expected"):
        replay([*state.events, extra])


def test_events_read_back_from_dicts() -> None:
    started = deal([100, 100], button=0).events[0]
    assert isinstance(started, HandStarted)
    data = started.to_dict()
    assert data["kind"] == "hand_started" and data["deck"][0] == "2c"
    assert event_from_dict(data) == started


def test_malformed_event_dicts_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown event kind 'bet'"):
        event_from_dict({"kind": "bet"})
    with pytest.raises(ValueError, match="malformed player_acted event"):
        event_from_dict({"kind": "player_acted", "seat": 1})
    with pytest.raises(ValueError, match="malformed pot_awarded event"):
        event_from_dict(
            {
                "kind": "pot_awarded",
                "pot_index": 0,
                "amount": 3,
                "eligible": [0],
                "shares": [1],
                "description": None,
            }
        )


def test_replay_onward_catches_a_kept_state_up_with_a_longer_log() -> None:
    states = [deal([100, 80, 60], button=0, ante=2)]
    for step in (10, "c", "c", 20, "c", "f", "x", "x", "x", "x"):
        states.append(play(states[-1], step))
    final = states[-1]
    for kept in states:
        assert replay_onward(kept, final.events) == final == replay(final.events)


def test_replay_onward_refuses_a_log_shorter_than_the_state() -> None:
    state = a_played_hand()
    with pytest.raises(ValueError, match="fewer than the state's"):
        replay_onward(state, state.events[:-1])


def test_replay_onward_checks_every_event_after_the_kept_state() -> None:
    kept = deal([100, 100, 100], button=0)
    later = play(kept, "c", "c", "x")
    events = list(later.events)
    index = next(i for i, e in enumerate(events) if e.kind == "board_dealt")
    events[index] = dataclasses.replace(events[index], street="turn")
    with pytest.raises(ValueError, match=f"event {index} \\(board_dealt\\) does not match"):
        replay_onward(kept, events)
    bad = PlayerActed(0, "preflop", "raise", 3, 3, False)
    with pytest.raises(IllegalAction, match="event 6 \\(raise\\): raise to 3 is below"):
        replay_onward(kept, [*kept.events, bad])

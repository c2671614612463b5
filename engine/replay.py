"""Rebuilding a hand from its event log.

Only the ``hand_started`` event (parameters and deck order) and the players'
decisions (actions, and the run-outs chosen) drive the replay; every other
event is checked against what the engine produces, so a tampered or truncated
log is refused.

>>> from engine.betting import apply_action
>>> from engine.cards import DECK
>>> from engine.deal import new_hand
>>> hand = apply_action(new_hand([100, 100], button=0, deck=DECK), parse_action("raise 6"))
>>> replay(hand.events) == hand
True
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action, IllegalAction, parse_action
from engine.betting import apply_action
from engine.deal import new_hand
from engine.events import Event, HandStarted, PlayerActed, RunoutsChosen
from engine.state import NO_SMALL_BLIND, HandState
from engine.streets import choose_runouts


def replay(events: Sequence[Event]) -> HandState:
    """The state a hand reached after ``events`` (a prefix of a hand's log works).

    Raises ``ValueError`` (``IllegalAction`` for a decision the rules refuse)
    naming the index of the first event that does not fit.
    """
    if not events or not isinstance(events[0], HandStarted):
        raise ValueError("an event log must start with a hand_started event")
    start = events[0]
    small_blind_seat = start.small_blind_seat
    state = new_hand(
        start.stacks,
        start.button,
        small_blind=start.small_blind,
        big_blind=start.big_blind,
        ante=start.ante,
        small_blind_seat=NO_SMALL_BLIND if small_blind_seat is None else small_blind_seat,
        big_blind_seat=start.big_blind_seat,
        deck=start.deck,
        game=start.game,
        straddle=start.straddle_seat is not None,
        bomb_pot=start.bomb_pot,
        run_it_twice=start.run_it_twice,
    )
    return _replay_rest(state, events, checked=0)


def replay_onward(state: HandState, events: Sequence[Event]) -> HandState:
    """``replay(events)``, given ``state``: what replaying the first
    ``len(state.events)`` of them gave. Only the events after those are applied
    and checked, so a caller that kept the state of a log (a live table's) catches
    up with a longer one for the price of its new events. That the log begins with
    ``state``'s events is the caller's to know.

    >>> from engine.betting import apply_action
    >>> from engine.cards import DECK
    >>> from engine.deal import new_hand
    >>> dealt = new_hand([100, 100], button=0, deck=DECK)
    >>> called = apply_action(dealt, parse_action("call"))
    >>> replay_onward(dealt, called.events) == called
    True
    """
    if len(events) < len(state.events):
        raise ValueError(f"the log has {len(events)} events, fewer than the state's")
    return _replay_rest(state, events, checked=len(state.events))


def _replay_rest(state: HandState, events: Sequence[Event], checked: int) -> HandState:
    """Apply the decisions in ``events`` after ``state``'s own, checking every event
    from index ``checked`` on against what the engine produces. The engine only adds
    events, so each one is checked once."""
    for index in range(len(state.events), len(events)):
        event = events[index]
        if isinstance(event, PlayerActed):
            checked = _check_range(state.events, events, checked, index)
            try:
                state = apply_action(state, action_of(event))
            except IllegalAction as error:
                raise IllegalAction(f"event {index} ({event.action}): {error}") from error
        elif isinstance(event, RunoutsChosen):
            checked = _check_range(state.events, events, checked, index)
            try:
                state = choose_runouts(state, event.count)
            except IllegalAction as error:
                raise IllegalAction(f"event {index} ({event.kind}): {error}") from error
    _check_range(state.events, events, checked, len(events))
    if len(state.events) != len(events):
        raise ValueError(f"the log stops at event {len(events)}, in the middle of dealing")
    return state


def action_of(event: PlayerActed) -> Action:
    """The decision a ``player_acted`` event records."""
    if event.action in ("bet", "raise"):
        return parse_action(f"{event.action} {event.total}")
    return parse_action(event.action)


def _check_range(produced: Sequence[Event], given: Sequence[Event], start: int, upto: int) -> int:
    """Check ``given[start:upto]`` against what the engine ``produced``; returns how far
    both now agree."""
    agreed = min(upto, len(produced))
    for index in range(start, agreed):
        if produced[index] != given[index]:
            raise ValueError(
                f"event {index} ({given[index].kind}) does not match the hand: "
                f"the engine produced {produced[index].to_dict()}"
            )
    if len(produced) < upto:
        raise ValueError(f"event {len(produced)} ({given[len(produced)].kind}) was not expected")
    return max(start, agreed)

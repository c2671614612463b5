"""The replayed hand is reused only while the saved event log is the same."""

from __future__ import annotations

import pytest

import engine
from tables import play as play_module
from tables.models import Table
from tables.play import hand_state
from tests.tables.helpers import act, deal, fresh, friends_table, state_of

pytestmark = pytest.mark.django_db


def test_an_unchanged_log_is_not_replayed_again(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    assert state_of(table) is state_of(table)


def test_every_change_is_seen_at_once(alice, bob):
    table = friends_table(alice, bob)
    before = deal(table)
    act(table, "call")
    after = state_of(table)
    assert len(after.events) == len(before.events) + 1
    assert after == engine.replay([engine.event_from_dict(e) for e in fresh(table).hand_events])


def test_a_log_that_differs_from_the_remembered_one_is_replayed(alice, bob):
    table = friends_table(alice, bob)
    dealt = deal(table)
    act(table, "call")
    # The row goes back to the log as dealt (as after a restore): the remembered
    # state, one action further on, must not be served for it.
    Table.objects.filter(pk=table.pk).update(
        hand_events=[event.to_dict() for event in dealt.events]
    )
    assert state_of(table) == dealt
    assert hand_state(fresh(table)).actor == dealt.actor


def test_a_log_that_goes_on_from_the_remembered_one_is_replayed_onward(alice, bob, monkeypatch):
    table = friends_table(alice, bob)
    dealt = deal(table)
    act(table, "call")
    after_call = state_of(table)
    # As in a process that served the deal but not the call:
    play_module._recent_states[table.pk] = ([e.to_dict() for e in dealt.events], dealt)
    monkeypatch.setattr(engine, "replay", None)  # only the new events are applied

    caught_up = hand_state(fresh(table))

    assert caught_up == after_call
    assert caught_up.events[: len(dealt.events)] == dealt.events

"""A change saves only the table's columns it changed, and the hand's log it saves is
the whole hand's, whether it was added to or begun afresh."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

import engine
from tables import play as table_play
from tables import services
from tables.services import play as p
from tests.tables.helpers import (
    act,
    deal,
    decision_of,
    fresh,
    friends_table,
    state_of,
    user_to_act,
)

pytestmark = pytest.mark.django_db


def _table_update(queries: CaptureQueriesContext) -> str:
    (update,) = [q["sql"] for q in queries if q["sql"].startswith('UPDATE "tables_table"')]
    return update


def test_an_action_leaves_the_tables_settings_and_names_unwritten(alice, bob, carol):
    table = friends_table(alice, bob, carol)
    deal(table)
    with CaptureQueriesContext(connection) as queries:
        act(table, "call")
    update = _table_update(queries)
    assert '"hand_events"' in update and '"seq"' in update
    assert '"name"' not in update and '"hand_names"' not in update


def test_the_saved_log_replays_to_the_hand_after_a_restart(alice, bob, carol):
    table = friends_table(alice, bob, carol)
    deal(table)
    act(table, "call")
    act(table, "fold")
    played = state_of(table)
    table_play._recent_states.clear()  # a restart: nothing kept in memory
    saved = fresh(table).hand_events
    assert saved == [event.to_dict() for event in played.events]
    assert engine.replay([engine.event_from_dict(e) for e in saved]) == played


def test_a_new_hands_log_replaces_the_last_ones(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    act(table, "fold")
    second = deal(table)
    assert fresh(table).hand_events == [event.to_dict() for event in second.events]


def test_a_json_column_changed_in_place_is_saved(alice, bob):
    table = friends_table(alice, bob)
    with transaction.atomic():
        play = p.lock(table.pk)
        play.table.muted_user_ids.append(bob.pk)
        p.commit(play)
    assert fresh(table).muted_user_ids == [bob.pk]


def test_an_action_and_its_snapshots_read_no_players_account_again(
    alice, bob, carol, django_capture_on_commit_callbacks
):
    """The seats are read with their users' names under the lock, without the columns
    no table reads (selectors.py): a command that touched one of those would fetch
    each player's account again, a query per player per action."""
    table = friends_table(alice, bob, carol)
    deal(table)
    user, decision = user_to_act(table), decision_of(table)
    with (
        CaptureQueriesContext(connection) as queries,
        django_capture_on_commit_callbacks(execute=True) as callbacks,
    ):
        services.hand_act(table_id=table.pk, user=user, action="call", decision=decision)
    assert callbacks, "the action's snapshots were built"
    user_reads = [q["sql"] for q in queries if 'FROM "accounts_user"' in q["sql"]]
    assert user_reads == []

"""The clock and the bots through a real Celery worker (the wake task queued on commit)."""

from __future__ import annotations

import time

import pytest

from tables import services
from tables.models import Seat, Table
from tests.support import wait_for
from tests.tables.helpers import fresh, state_of

pytestmark = pytest.mark.django_db(transaction=True)


def fast_clock_table(*players) -> Table:
    """One second per decision (less than a member may choose), set before anyone sits."""
    table = services.table_create(owner=players[0], name="Quick")
    Table.objects.filter(pk=table.pk).update(action_seconds=1)
    for number, user in enumerate(players):
        services.seat_take(table_id=table.pk, user=user, seat=number)
    return fresh(table)


def test_a_timeout_through_the_worker_folds_the_player_and_sits_them_out(
    celery_worker, alice, bob, settings
):
    settings.TABLES_TIME_BANK_SECONDS = 0
    table = fast_clock_table(alice, bob)
    wait_for(lambda: fresh(table).hand_number == 1)  # the worker deals the first hand
    started = time.monotonic()
    actor = Seat.objects.get(table=table, number=state_of(table).actor)

    wait_for(lambda: Seat.objects.get(pk=actor.pk).is_sitting_out)

    assert time.monotonic() - started >= 0.5, "not before the deadline"
    state = state_of(table)
    assert state.is_over and state.has_folded[actor.number]
    assert Table.objects.get(pk=table.pk).hands.get(number=1).is_over
    assert fresh(table).hand_number == 1, "no new hand with one player sitting out"


def test_the_time_bank_runs_before_the_timeout(celery_worker, alice, bob, settings):
    settings.TABLES_TIME_BANK_SECONDS = 1
    table = fast_clock_table(alice, bob)
    wait_for(lambda: fresh(table).hand_number == 1)
    actor = Seat.objects.get(table=table, number=state_of(table).actor)

    wait_for(lambda: fresh(table).is_time_bank)
    assert not Seat.objects.get(pk=actor.pk).is_sitting_out
    wait_for(lambda: Seat.objects.get(pk=actor.pk).is_sitting_out)
    assert Seat.objects.get(pk=actor.pk).time_bank == 0


def test_bots_move_by_themselves_until_it_is_the_humans_turn(celery_worker, alice):
    table = services.table_create_practice(user=alice, bots=3)

    def alice_to_act() -> bool:
        state = state_of(table)
        return not state.is_over and state.actor == 0

    wait_for(alice_to_act)
    hand = fresh(table).hands.get(number=fresh(table).hand_number)
    bot_moves = [e for e in state_of(table).events if e.kind == "player_acted"]
    assert all(e.seat != 0 for e in bot_moves), "alice has not acted: only bots did"
    assert hand.started_at is not None

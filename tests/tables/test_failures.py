"""Failures play goes on past are logged with their table and hand, counted, and shown."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.utils import timezone

from engine import PlayerActed
from tables import services, tasks
from tables.failures import failure_counts
from tables.models import Seat, Table
from tables.selectors import SWEEP_GRACE_SECONDS
from tests.tables.helpers import decision_of, fresh, friends_table, state_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_redis")]


def test_a_bot_strategy_error_is_logged_counted_and_the_bot_still_acts(alice, monkeypatch, caplog):
    table = services.table_create_practice(user=alice, bots=1)
    state = state_of(table)
    bot = Seat.objects.get(table=table, is_bot=True)
    if state.actor != bot.number:  # let alice act so that the bot is to act
        services.hand_act(table_id=table.pk, user=alice, action="call", decision=decision_of(table))
    assert state_of(table).actor == bot.number

    def broken(view, rng=None):
        raise RuntimeError("the strategy blew up")

    monkeypatch.setattr("tables.services.bots.choose_action", broken)
    with caplog.at_level(logging.ERROR, logger="tables.failures"):
        acted = services.bot_act(table_id=table.pk, seq=fresh(table).seq)

    assert acted
    assert f"bot_strategy failed at table {table.pk}, hand 1" in caplog.text
    assert "the strategy blew up" in caplog.text
    assert failure_counts()["bot_strategy"] == 1
    moves = [
        e for e in state_of(table).events if isinstance(e, PlayerActed) and e.seat == bot.number
    ]
    assert moves[-1].action in ("check", "fold") and moves[-1].street == "preflop"


def test_a_wake_up_that_cannot_do_what_is_due_is_logged_and_counted(alice, bob, caplog):
    table = services.table_create(owner=alice, name="Quiet")
    services.seat_take(table_id=table.pk, user=alice, seat=0)
    services.seat_take(table_id=table.pk, user=bob, seat=1)
    Seat.objects.filter(table=table).update(is_sitting_out=True)  # nobody can be dealt in
    past = timezone.now() - timedelta(seconds=5)
    Table.objects.filter(pk=table.pk).update(wake_at=past, next_hand_at=past)

    with caplog.at_level(logging.ERROR, logger="tables.failures"):
        assert tasks.sweep() == 0

    assert f"wake failed at table {table.pk}, hand 0" in caplog.text
    assert failure_counts()["wake"] == 1


def test_a_wake_up_later_than_one_sweep_is_overdue_on_healthz_until_the_sweep_applies_it(
    client, alice, bob, carol, make_user, settings, time_machine
):
    time_machine.move_to(timezone.now(), tick=False)  # lateness exactly as set
    period = settings.CELERY_BEAT_SCHEDULE["sweep-tables"]["schedule"]
    lost = friends_table(alice, bob)  # the next hand's wake task was lost
    on_time = friends_table(carol, make_user("dave"))  # its task may still come
    now = timezone.now()
    due_at = {
        lost.pk: now - timedelta(seconds=period + SWEEP_GRACE_SECONDS + 0.5),
        on_time.pk: now - timedelta(seconds=period / 2),
    }
    for table_id, moment in due_at.items():
        Table.objects.filter(pk=table_id).update(wake_at=moment, next_hand_at=moment)

    body = client.get("/healthz").json()
    assert body["tables"]["overdue"] == [lost.pk]
    assert set(body["tables"]["failures"]) == {"bot_strategy", "wake"}

    tasks.sweep()

    assert fresh(lost).hand_number == 1, "the sweep dealt the lost hand"
    assert client.get("/healthz").json()["tables"]["overdue"] == []

"""Why no hand is dealt, who has dropped, who timed out, and names kept in the log."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
import time_machine
from asgiref.sync import sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import engine
from tables import selectors, services, tasks
from tables.models import PresenceLease
from tables.services import presence
from tests.tables.helpers import act, deal, fresh, friends_table, state_of
from tests.tables.sockets import Client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]


def spectators_view(table):
    return selectors.table_snapshot(table_id=table.pk, user=None)


def test_the_snapshot_says_why_no_hand_is_dealt(alice, bob):
    table = friends_table(alice)
    assert spectators_view(table)["waiting_for"] == "Need one more player"
    services.seat_take(table_id=table.pk, user=bob, seat=1)
    assert spectators_view(table)["waiting_for"] is None, "a hand is coming"
    services.seat_sit_out(table_id=table.pk, user=bob)
    assert spectators_view(table)["waiting_for"] == "Waiting for bob to come back"
    services.seat_sit_in(table_id=table.pk, user=bob)
    services.table_pause(table_id=table.pk, user=alice)
    assert spectators_view(table)["waiting_for"] == "Paused by the host"
    services.table_resume(table_id=table.pk, user=alice)
    deal(table)
    assert spectators_view(table)["waiting_for"] is None, "nothing to wait for in a hand"


def test_a_timeout_is_logged_as_one_and_the_player_sits_out(alice, bob):
    table = friends_table(alice, bob, action_seconds=5)
    deal(table)
    actor = state_of(table).actor
    with time_machine.travel(timezone.now() + timedelta(seconds=6), tick=False):
        assert services.hand_timeout(table_id=table.pk, seq=fresh(table).seq)  # the bank
    deadline = fresh(table).deadline
    with time_machine.travel(deadline + timedelta(seconds=1), tick=False):
        assert services.hand_timeout(table_id=table.pk, seq=fresh(table).seq)
    view = spectators_view(table)
    timed_out = [e for e in view["hand"]["log"] if e.get("timed_out")]
    assert len(timed_out) == 1 and timed_out[0]["seat"] == actor
    assert timed_out[0]["action"] in ("fold", "check")
    assert view["seats"][actor]["is_sitting_out"] and view["seats"][actor]["has_timed_out"]
    assert not view["seats"][1 - actor]["has_timed_out"]
    services.seat_sit_in(table_id=table.pk, user=fresh(table).seats.get(number=actor).user)
    assert not spectators_view(table)["seats"][actor]["has_timed_out"], "back: no longer"


def test_a_player_who_left_keeps_their_name_in_the_hand_they_played(alice, bob, carol):
    table = friends_table(alice, bob, carol)
    deal(table)
    services.seat_leave(table_id=table.pk, user=carol)
    while not state_of(table).is_over:
        legal = engine.legal_actions(state_of(table))
        act(table, "check" if legal.can_check else "call")
    view = spectators_view(table)
    assert not view["seats"][2]["occupied"], "carol's seat is free again"
    assert view["hand"]["names"] == ["alice", "bob", "carol", None, None, None]


async def test_others_see_a_dropped_connection_and_its_return(alice, bob, carol):
    table = await sync_to_async(friends_table)(alice, bob)
    host, player = await Client.open(alice, table.pk), await Client.open(bob, table.pk)
    spectator = await Client.open(carol, table.pk)
    second_tab = await Client.open(bob, table.pk)
    await second_tab.close()
    assert await host.is_quiet(), "bob still has a tab open"
    await player.close()
    for client in (host, spectator):
        frame = await client.next()
        assert frame["type"] == "presence" and frame["seat"] == 1
        assert frame["disconnected_since"] is not None
    view = await sync_to_async(spectators_view)(table)
    assert view["seats"][1]["disconnected_since"] == frame["disconnected_since"]
    assert view["seats"][0]["disconnected_since"] is None
    back = await Client.open(bob, table.pk)
    frame = await host.next()
    assert frame == {"type": "presence", "seat": 1, "disconnected_since": None}
    for client in (host, spectator, back):
        await client.close()


async def test_an_open_socket_renews_its_lease_so_the_sweep_leaves_the_player_present(
    alice, bob, settings
):
    settings.TABLES_PRESENCE_LEASE_SECONDS = 1.2  # renewed every 0.4 s
    table = await sync_to_async(friends_table)(alice, bob)
    host, player = await Client.open(alice, table.pk), await Client.open(bob, table.pk)
    for _ in range(7):  # 3.5 s: about three lease times
        await asyncio.sleep(0.5)
        await sync_to_async(tasks.sweep)()
    while not await host.is_quiet():  # snapshots of the hand being played
        await host.next()
    assert not [f for f in host.frames if f["type"] == "presence"], "nobody dropped"
    view = await sync_to_async(spectators_view)(table)
    assert view["seats"][1]["disconnected_since"] is None
    await player.close()
    frame = await host.next()
    while frame["type"] != "presence":
        frame = await host.next()
    assert frame["seat"] == 1 and frame["disconnected_since"] is not None
    assert not await sync_to_async(PresenceLease.objects.filter(seat__user=bob).exists)()
    await host.close()


def test_a_presence_change_locks_the_seat_without_joining_the_tables_row(alice, bob):
    table = friends_table(alice, bob)
    with CaptureQueriesContext(connection) as queries:
        presence.seat_presence(
            table_id=table.pk, user=bob, channel_name="bob-tab", is_open=True, holder="web-1"
        )
    seat_reads = [q["sql"] for q in queries if q["sql"].startswith('SELECT "tables_seat"')]
    assert seat_reads and not any("JOIN" in sql for sql in seat_reads)

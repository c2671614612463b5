"""On PostgreSQL table commands run on a few threads per server process: a command
stuck waiting for its table's lock does not hold up another table's players."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections, transaction

from tables.models import Table
from tests.tables.helpers import deal, fresh, friends_table, user_to_act
from tests.tables.sockets import Client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite has one writer at a time: its commands run on one thread",
    ),
]


def hold_lock(table_id: int, taken: threading.Event, release: threading.Event) -> None:
    """Another process's long transaction on the table: its row stays locked."""
    try:
        with transaction.atomic():
            list(Table.objects.select_for_update().filter(pk=table_id))
            taken.set()
            release.wait(timeout=20)
    finally:
        connections.close_all()


async def test_a_table_whose_row_is_locked_does_not_hold_up_another_tables_actions(
    make_user,
):
    alice, bob, carol, dave = [
        await sync_to_async(make_user)(name) for name in ("alice", "bob", "carol", "dave")
    ]
    stuck = await sync_to_async(friends_table)(alice, bob)
    moving = await sync_to_async(friends_table)(carol, dave)
    for table in (stuck, moving):
        await sync_to_async(deal)(table)
    stuck_player = await Client.open(await sync_to_async(user_to_act)(stuck), stuck.pk)
    moving_player = await Client.open(await sync_to_async(user_to_act)(moving), moving.pk)
    taken, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=hold_lock, args=(stuck.pk, taken, release))
    holder.start()
    try:
        assert await asyncio.to_thread(taken.wait, 10)
        seq = stuck_player.table["seq"]
        await stuck_player.send(
            {"type": "act", "action": "fold", "decision": stuck_player.table["decision"]}
        )
        await asyncio.sleep(0.2)  # the fold is now waiting for the lock

        moving_seq = moving_player.table["seq"]
        await moving_player.send(
            {"type": "act", "action": "fold", "decision": moving_player.table["decision"]}
        )
        assert (await moving_player.snapshot(moving_seq + 1, timeout=3))["seq"] == moving_seq + 1
        assert (await sync_to_async(fresh)(stuck)).seq == seq, "still waiting for its lock"
    finally:
        release.set()
        await asyncio.to_thread(holder.join, 10)
    assert (await stuck_player.snapshot(seq + 1))["seq"] == seq + 1, "then it plays on"
    await stuck_player.close()
    await moving_player.close()

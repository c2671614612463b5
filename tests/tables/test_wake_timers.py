"""A server process applies its tables' wake-ups on its own timers (tables/wake_timers.py):
the next hand and a decision's clock come on time with no Celery worker at all, a
table keeps one timer per process, and a timer whose table moved on changes nothing."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from tables import selectors, services
from tables.wake_timers import WakeTimers, apply_wake
from tables.wakeups import Wake
from tests.tables.helpers import deal, fresh, friends_table
from tests.tables.sockets import Client

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def timers_on(settings):
    """As a server runs: no Celery worker reads this test process's tasks, so only the
    consumers' own timers can deal or time anyone out here."""
    settings.TABLES_WAKE_TIMERS = True
    settings.TABLES_NEXT_HAND_SECONDS = 0.3


async def snapshot_where(client: Client, condition, timeout: float) -> dict:
    """The first snapshot ``client`` gets for which ``condition`` holds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, f"{client.name} never saw it; last: {client.table}"
        table = await client.snapshot(timeout=left)
        if condition(table):
            return table


@pytest.mark.usefixtures("timers_on", "close_database_connections")
async def test_the_next_hand_and_a_decisions_clock_come_on_time_with_no_worker(alice, bob):
    table = await sync_to_async(services.table_create)(
        owner=alice, name="Friday game", action_seconds=5
    )
    players = [await Client.open(alice, table.pk), await Client.open(bob, table.pk)]
    for number, client in enumerate(players):
        await client.send({"type": "sit", "seat": number})
        await snapshot_where(client, lambda view, n=number: view["your_seat"] == n, 5)

    dealt = await snapshot_where(players[0], lambda view: view["to_act"] is not None, 5)
    assert dealt["hand_number"] == 1

    # Nobody acts: when the clock runs out, the player to act's time bank takes over.
    banked = await snapshot_where(players[0], lambda view: view["is_time_bank"], 5 + 3)
    assert banked["to_act"] == dealt["to_act"]
    for client in players:
        await client.close()


async def test_a_later_wake_up_replaces_the_tables_timer_and_an_older_one_does_not():
    timers = WakeTimers()
    soon, later = timezone.now() + timedelta(seconds=0.05), timezone.now() + timedelta(hours=1)
    applied: list[Wake] = []

    async def note(wake: Wake) -> None:
        applied.append(wake)

    timers.apply = note  # type: ignore[method-assign]  # what fires, not what it applies
    timers.schedule(Wake(table_id=7, seq=3, at=later))
    timers.schedule(Wake(table_id=7, seq=4, at=soon))  # the table moved on: replaced
    timers.schedule(Wake(table_id=7, seq=2, at=soon))  # committed before seq 3: ignored
    timers.schedule(Wake(table_id=8, seq=1, at=later))  # another table's own
    await asyncio.sleep(0.2)

    assert applied == [Wake(table_id=7, seq=4, at=soon)]
    assert list(timers.timers) == [8]
    timers.timers[8][1].cancel()


def test_a_timer_whose_table_moved_on_changes_nothing(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    stale = Wake(table_id=table.pk, seq=fresh(table).seq - 1, at=timezone.now())
    before = selectors.table_get(table_id=table.pk)
    outbox: list = []
    wakes: list[Wake] = []

    apply_wake(stale, outbox, wakes)

    after = selectors.table_get(table_id=table.pk)
    assert (after.seq, after.hand_number) == (before.seq, before.hand_number)
    assert outbox == [] and wakes == []

"""Two actions for the same decision at the same moment: exactly one applies; and an
action on a decision the table has left behind is refused with the table shown."""

from __future__ import annotations

import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from config.platform import broadcast
from tables import services
from tables.errors import StaleDecision
from tables.models import Seat
from tests.tables.helpers import act, decision_of, fresh, friends_table, state_of
from tests.tables.sockets import Client

pytestmark = pytest.mark.django_db(transaction=True)


def dealt_heads_up(alice, bob):
    table = friends_table(alice, bob)
    services.hand_start(table_id=table.pk, seq=fresh(table).seq)
    table = fresh(table)
    actor = Seat.objects.get(table=table, number=state_of(table).actor).user
    return table, actor


def test_two_threads_answering_the_same_decision_apply_once(alice, bob):
    table, actor = dealt_heads_up(alice, bob)
    decision = decision_of(table)
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def act(action: str) -> None:
        barrier.wait()
        try:
            outcomes.append(
                services.hand_act(table_id=table.pk, user=actor, action=action, decision=decision)
            )
        except StaleDecision as error:
            outcomes.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=act, args=(a,)) for a in ("call", "fold")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert sorted(type(o).__name__ for o in outcomes) == ["StaleDecision", "int"]
    assert fresh(table).seq == table.seq + 1
    acted = [e for e in state_of(table).events if e.kind == "player_acted"]
    assert len(acted) == 1


async def test_two_tabs_sending_the_same_decision_get_one_snapshot_and_one_stale_decision(
    alice, bob
):
    table, actor = await sync_to_async(dealt_heads_up)(alice, bob)
    first, second = await Client.open(actor, table.pk), await Client.open(actor, table.pk)
    seq = first.table["seq"]
    move = {"type": "act", "action": "call", "decision": first.table["decision"]}
    await first.send(move)
    await second.send(move)
    frames = [await first.next(), await second.next()]
    for client in (first, second):
        if not await client.is_quiet():
            frames.append(await client.next())
    errors = [f for f in frames if f["type"] == "error"]
    snapshots = [f for f in frames if f["type"] == "snapshot"]
    assert [e["code"] for e in errors] == ["stale_decision"]
    assert len(snapshots) == 2, "each tab gets the one change, and one tab gets the error"
    assert {s["seq"] for s in snapshots} == {seq + 1}
    for client in (first, second):
        await client.close()
    await sync_to_async(connections.close_all)()


async def test_a_socket_that_missed_a_change_is_shown_the_table_with_its_stale_decision(alice, bob):
    """A change whose broadcast was lost (a service blinked): the player acting on the
    decision their page still shows is refused and shown the table as it stands, so
    they can act again at once instead of waiting for the table's next change."""
    table, actor = await sync_to_async(dealt_heads_up)(alice, bob)
    client = await Client.open(actor, table.pk)
    shown = client.table
    lost: broadcast.Messages = []

    def call_unannounced() -> None:
        with broadcast.collected(lost):  # committed, and never sent to anyone
            act(fresh(table), "call")

    await sync_to_async(call_unannounced)()
    error = await client.error({"type": "act", "action": "call", "decision": shown["decision"]})
    assert error["code"] == "stale_decision"
    now = await client.snapshot(shown["seq"] + 1)
    assert now["decision"] != shown["decision"]
    await client.close()

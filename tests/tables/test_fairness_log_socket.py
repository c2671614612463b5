"""A hand played over the table's socket joins the public log: its end marks it pending
and the tables' sweep appends it (tables/fairness_log/append.py)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from tables import services, tasks
from tables.models import Hand, LogEntry
from tests.tables.sockets import Client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]


async def dealt(client: Client) -> dict[str, Any]:
    """The next snapshot of a hand someone is to act in (the worker deals it)."""
    while True:
        table = await client.snapshot(timeout=30)
        if (
            table["hand"] is not None
            and not table["hand"]["is_over"]
            and table["to_act"] is not None
        ):
            return table


async def fold_the_first_hand(players: list[Client]) -> list[dict[str, Any]]:
    """Whoever is to act in hand 1 folds it over their socket, and reads their own
    frames until the hand is over. A fold that crossed a newer snapshot is refused
    as stale and sent again with the decision then pending; the refusals are returned."""
    refusals: list[dict[str, Any]] = []
    view = await dealt(players[0])  # the worker deals it
    for _ in range(5):
        actor = players[view["to_act"]]  # each sat in the seat of their place in the list
        sent = view["decision"]
        await actor.send({"type": "act", "decision": sent, "action": "fold"})
        while True:
            frame = await actor.next_but_presence(timeout=30)
            if frame["type"] == "error":
                refusals.append(frame)
                break
            table = frame["table"]
            if table["hand_number"] > 1 or (table["hand"] or {}).get("is_over"):
                return refusals
            if table["to_act"] is not None and table["decision"] != sent:
                view = table  # a newer decision is pending: the fold is refused below
        if view["decision"] == sent:
            view = await dealt(actor)
    return refusals


async def test_a_hand_folded_over_the_socket_is_logged_by_the_sweep(
    celery_worker: None, alice: Any, bob: Any
) -> None:
    table = await sync_to_async(services.table_create)(owner=alice, name="Friday game")
    players = [await Client.open(alice, table.pk), await Client.open(bob, table.pk)]
    for number, client in enumerate(players):
        await client.send({"type": "sit", "seat": number})
    refusals = await fold_the_first_hand(players)
    ended = sync_to_async(
        lambda: Hand.objects.filter(table_id=table.pk, number=1, ended_at__isnull=False).exists()
    )
    assert await ended(), f"the fold did not end the hand: refused {refusals}"

    await sync_to_async(tasks.sweep)()  # as the beat runs it, every couple of seconds

    entry = await sync_to_async(lambda: LogEntry.objects.select_related("hand").get(index=0))()
    assert entry.hand.table_id == table.pk and entry.hand.number == 1
    for client in players:
        await client.socket.disconnect()

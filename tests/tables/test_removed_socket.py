"""A player the host removes is told so on their table page, once the seat is freed."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

import engine
from tests.tables.helpers import act, deal, friends_table, state_of
from tests.tables.sockets import Client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]

REMOVED = {"kind": "removed", "text": "The host removed you from the table"}


async def frames_until_notice(client: Client) -> list[dict]:
    frames = [await client.next_but_presence()]
    while frames[-1]["type"] != "notice":
        frames.append(await client.next_but_presence())
    return frames


async def test_a_player_removed_between_hands_is_told_after_losing_the_seat(alice, bob, carol):
    table = await sync_to_async(friends_table)(alice, bob)
    host, removed = await Client.open(alice, table.pk), await Client.open(bob, table.pk)
    spectator = await Client.open(carol, table.pk)

    await host.send({"type": "remove", "seat": 1})

    frames = await frames_until_notice(removed)
    assert frames[-1]["notice"] == {**REMOVED, "table_id": table.pk}
    snapshots = [f["table"] for f in frames if f["type"] == "snapshot"]
    assert snapshots and snapshots[-1]["your_seat"] is None, "the seat is gone first"
    await host.snapshot()
    await spectator.snapshot()
    assert await host.is_quiet() and await spectator.is_quiet(), "nobody else is told"
    for client in (host, removed, spectator):
        await client.close()


def _play_out(table) -> None:
    while not state_of(table).is_over:
        legal = engine.legal_actions(state_of(table))
        act(table, "check" if legal.can_check else "call")


async def test_a_player_removed_during_a_hand_is_told_when_it_ends(alice, bob, carol):
    table = await sync_to_async(friends_table)(alice, bob, carol)
    await sync_to_async(deal)(table)
    host, removed = await Client.open(alice, table.pk), await Client.open(bob, table.pk)

    await host.send({"type": "remove", "seat": 1})
    during = await removed.snapshot()
    assert during["your_seat"] == 1 and during["seats"][1]["is_removed"] is True
    assert await removed.is_quiet(), "no notice while the seat is still theirs"

    await sync_to_async(_play_out)(table)

    frames = await frames_until_notice(removed)
    assert frames[-1]["notice"] == {**REMOVED, "table_id": table.pk}
    assert [f for f in frames if f["type"] == "snapshot"][-1]["table"]["your_seat"] is None
    await host.close()
    await removed.close()


async def test_leaving_by_oneself_brings_no_notice(alice, bob):
    table = await sync_to_async(friends_table)(alice, bob)
    leaver = await Client.open(bob, table.pk)
    await leaver.send({"type": "leave"})
    assert (await leaver.snapshot())["your_seat"] is None
    assert await leaver.is_quiet()
    await leaver.close()

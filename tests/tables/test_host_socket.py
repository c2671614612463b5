"""The host's messages over the table socket: refused (with a code, nothing changed)
unless they come from the host with good values; seen by everyone when they apply."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from tables import services
from tables.models import ChatMessage, ChipMovement, Seat, SeatRequest, Table
from tests.tables.helpers import friends_table
from tests.tables.sockets import Client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]

# One good message of each host type, for seat 1 (bob) where a seat is named.
GOOD = [
    {"type": "pause"},
    {"type": "set_blinds", "small_blind": 25, "big_blind": 50, "ante": 5},
    {"type": "remove", "seat": 1},
    {"type": "make_host", "seat": 1},
    {"type": "set_approvals", "rebuys": True},
    {"type": "set_approvals", "seating": True},
    {"type": "answer_rebuy", "seat": 1, "approve": True},
    {"type": "answer_seat", "request": 1, "approve": True},
    {"type": "mute", "seat": 1, "muted": True},
    {"type": "set_listed", "listed": True},
]

MALFORMED = [
    {"type": "set_blinds", "small_blind": "25", "big_blind": 50},
    {"type": "set_blinds", "small_blind": 25},
    {"type": "set_blinds", "small_blind": 25, "big_blind": 50, "ante": 1.5},
    {"type": "set_blinds", "small_blind": True, "big_blind": 50},
    {"type": "remove"},
    {"type": "remove", "seat": "1"},
    {"type": "make_host", "seat": None},
    {"type": "set_approvals"},
    {"type": "set_approvals", "rebuys": "yes"},
    {"type": "answer_rebuy", "seat": 1},
    {"type": "answer_rebuy", "seat": 1, "approve": 1},
    {"type": "answer_seat", "approve": True},
    {"type": "mute", "seat": 1},
    {"type": "mute", "seat": 1.0, "muted": True},
    {"type": "set_listed"},
    {"type": "set_listed", "listed": "yes"},
]


def facts(table_id: int) -> tuple[Any, ...]:
    """Everything a host message could change."""
    table = Table.objects.get(pk=table_id)
    row = (
        table.seq,
        table.host_id,
        table.is_paused,
        table.next_small_blind,
        table.next_big_blind,
        table.next_ante,
        table.is_rebuy_approved_by_host,
        table.is_seating_approved_by_host,
        table.muted_user_ids,
        table.wake_at,
        table.is_listed,
    )
    seats = tuple(
        Seat.objects.filter(table_id=table_id).values_list(
            "number", "user_id", "stack", "is_leaving", "wants_rebuy"
        )
    )
    requests = tuple(SeatRequest.objects.filter(table_id=table_id).values_list("id", "number"))
    return row, seats, requests, ChipMovement.objects.count()


@pytest.mark.parametrize("message", GOOD, ids=lambda m: f"{m['type']}")
async def test_a_host_message_from_anyone_but_the_host_is_refused(alice, bob, carol, message):
    table = await sync_to_async(friends_table)(alice, bob)
    before = await sync_to_async(facts)(table.pk)
    player, spectator = await Client.open(bob, table.pk), await Client.open(carol, table.pk)
    assert (await player.error(message))["code"] == "not_host"
    assert (await spectator.error(message))["code"] == "not_host"
    assert await sync_to_async(facts)(table.pk) == before
    await player.close()
    await spectator.close()


@pytest.mark.parametrize("message", MALFORMED, ids=lambda m: f"{m['type']}")
async def test_a_malformed_host_message_is_refused(alice, bob, message):
    table = await sync_to_async(friends_table)(alice, bob)
    before = await sync_to_async(facts)(table.pk)
    host = await Client.open(alice, table.pk)
    frame = await host.error(message)
    assert frame["code"] == "bad_message" and message["type"] in frame["message"]
    assert await sync_to_async(facts)(table.pk) == before
    await host.close()


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "resume"}, "not_paused"),
        ({"type": "set_blinds", "small_blind": 0, "big_blind": 20}, "bad_blinds"),
        ({"type": "set_blinds", "small_blind": 30, "big_blind": 20}, "bad_blinds"),
        ({"type": "set_blinds", "small_blind": 10, "big_blind": 20, "ante": 25}, "bad_blinds"),
        ({"type": "set_blinds", "small_blind": 10, "big_blind": 20, "ante": -1}, "bad_blinds"),
        ({"type": "set_blinds", "small_blind": 500, "big_blind": 1000}, "bad_blinds"),
        ({"type": "remove", "seat": 4}, "bad_seat"),
        ({"type": "remove", "seat": 0}, "bad_seat"),
        ({"type": "remove", "seat": -1}, "bad_seat"),
        ({"type": "make_host", "seat": 9}, "bad_seat"),
        ({"type": "make_host", "seat": 0}, "bad_seat"),
        ({"type": "answer_rebuy", "seat": 1, "approve": True}, "no_request"),
        ({"type": "answer_rebuy", "seat": 5, "approve": False}, "no_request"),
        ({"type": "answer_seat", "request": 12345, "approve": True}, "no_request"),
        ({"type": "mute", "seat": 3, "muted": True}, "bad_seat"),
    ],
)
async def test_the_host_is_told_what_is_wrong_and_nothing_changes(alice, bob, message, code):
    table = await sync_to_async(friends_table)(alice, bob, starting_stack=1000)
    before = await sync_to_async(facts)(table.pk)
    host = await Client.open(alice, table.pk)
    assert (await host.error(message))["code"] == code
    assert await sync_to_async(facts)(table.pk) == before
    await host.close()


async def test_host_messages_at_a_practice_table_are_refused(alice):
    table = await sync_to_async(services.table_create_practice)(user=alice, bots=1)
    before = await sync_to_async(facts)(table.pk)
    client = await Client.open(alice, table.pk)
    assert (await client.error({"type": "pause"}))["code"] == "not_host"
    assert (await client.error({"type": "mute", "seat": 1, "muted": True}))["code"] == "not_host"
    assert await sync_to_async(facts)(table.pk) == before
    assert client.table["host_user_id"] is None
    await client.close()


async def test_everyone_sees_the_pause_and_the_blinds_for_the_next_hand(alice, bob, carol):
    table = await sync_to_async(friends_table)(alice, bob)
    host, spectator = await Client.open(alice, table.pk), await Client.open(carol, table.pk)
    assert host.table["host_user_id"] == alice.pk and not host.table["is_paused"]
    await host.send({"type": "pause"})
    seen = await spectator.snapshot(seq=host.table["seq"] + 1)
    assert seen["is_paused"] and seen["next_hand_at"] is None
    assert (await host.snapshot())["is_paused"]
    assert (await host.error({"type": "pause"}))["code"] == "already_paused"
    await host.send({"type": "set_blinds", "small_blind": 25, "big_blind": 50})
    seen = await spectator.snapshot(seq=seen["seq"] + 1)
    assert seen["next_blinds"] == {"small_blind": 25, "big_blind": 50, "ante": 0}
    assert (seen["small_blind"], seen["big_blind"]) == (10, 20), "this hand's are unchanged"
    await host.close()
    await spectator.close()


async def test_the_host_lists_the_table_in_the_lobby_and_everyone_sees_it(alice, bob):
    table = await sync_to_async(friends_table)(alice, bob)
    host, player = await Client.open(alice, table.pk), await Client.open(bob, table.pk)
    assert host.table["listed"] is False, "a friends' table starts unlisted"
    await host.send({"type": "set_listed", "listed": True})
    assert (await player.snapshot(seq=player.table["seq"] + 1))["listed"] is True
    assert (await host.snapshot())["listed"] is True
    await host.send({"type": "set_listed", "listed": False})
    assert (await player.snapshot(seq=player.table["seq"] + 1))["listed"] is False
    await host.close()
    await player.close()


async def test_a_muted_player_cannot_chat_until_unmuted(alice, bob):
    table = await sync_to_async(friends_table)(alice, bob)
    host, player = await Client.open(alice, table.pk), await Client.open(bob, table.pk)
    await host.send({"type": "mute", "seat": 1, "muted": True})
    seen = await player.snapshot(seq=player.table["seq"] + 1)
    assert seen["seats"][1]["is_muted"]
    assert (await player.error({"type": "chat", "text": "hello"}))["code"] == "muted"
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    await host.send({"type": "mute", "seat": 1, "muted": False})
    await player.snapshot(seq=seen["seq"] + 1)
    await player.send({"type": "chat", "text": "thanks"})
    assert (await player.next())["text"] == "thanks"
    await host.close()
    await player.close()


async def test_the_host_role_passes_to_another_player(alice, bob):
    table = await sync_to_async(friends_table)(alice, bob)
    host, player = await Client.open(alice, table.pk), await Client.open(bob, table.pk)
    await host.send({"type": "make_host", "seat": 1})
    seen = await player.snapshot(seq=player.table["seq"] + 1)
    assert seen["host_user_id"] == bob.pk
    await host.snapshot(seq=seen["seq"])
    assert (await host.error({"type": "pause"}))["code"] == "not_host"
    await player.send({"type": "pause"})
    assert (await player.snapshot())["is_paused"]
    await host.close()
    await player.close()

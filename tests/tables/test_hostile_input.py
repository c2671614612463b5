"""Adversarial input at the table's entry points: a clear refusal, never a crash or a change."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tables import services
from tables.errors import BadSeat
from tables.models import Seat, Table
from tables.play import hand_state
from tests.tables.helpers import friends_table
from tests.tables.sockets import HEADERS, Client, close_code_after_accepting, session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]

HUGE = 10**30


async def test_a_deeply_nested_frame_is_refused_as_bad_json(alice, bob):
    table = await sync_to_async(friends_table)(alice, bob, seat_count=2)
    client = await Client.open(alice, table.pk)
    error = await client.error("[" * 2000, raw=True)
    assert error["code"] == "bad_json"
    await client.close()


async def test_huge_numbers_in_frames_are_refused_and_change_nothing(alice, bob):
    table = await sync_to_async(friends_table)(alice, bob, seat_count=2)
    client = await Client.open(alice, table.pk)
    seq = client.table["seq"]
    assert (await client.error({"type": "sit", "seat": HUGE}))["code"] == "bad_seat"
    assert (await client.error({"type": "sit", "seat": -HUGE}))["code"] == "bad_seat"
    huge_decision = {"type": "act", "action": "call", "decision": f"{HUGE}.{HUGE}"}
    assert (await client.error(huge_decision))["code"] == "bad_message", "too long to be one"
    assert await client.is_quiet()
    stacks = await sync_to_async(lambda: sorted(Seat.objects.values_list("number", "stack")))()
    assert stacks == [(0, 1500), (1, 1500)]
    assert (await sync_to_async(Table.objects.get)(pk=table.pk)).seq == seq
    await client.close()


async def test_a_socket_to_a_table_id_beyond_the_database_range_is_closed_as_not_found(alice):
    headers = [*HEADERS, (b"cookie", await session_cookie(alice))]
    socket = WebsocketCommunicator(application, f"/ws/tables/{HUGE}/", headers=headers)
    assert await close_code_after_accepting(socket) == 4404


def test_a_table_page_with_an_id_beyond_the_database_range_is_not_found(client, alice):
    client.force_login(alice)
    assert client.get(f"/tables/{HUGE}/").status_code == 404


def test_a_stranger_cannot_take_the_seat_the_owner_left_at_a_practice_table(alice, bob):
    table = services.table_create_practice(user=alice, bots=1)
    # Between hands (the first hand is played out by alice folding or leaving).
    services.seat_leave(table_id=table.pk, user=alice)
    table = Table.objects.get(pk=table.pk)
    seq = table.seq
    with pytest.raises(BadSeat):
        services.seat_take(table_id=table.pk, user=bob, seat=0)
    assert not Seat.objects.filter(table=table, user=bob).exists()
    assert Table.objects.get(pk=table.pk).seq == seq


def dealt_with_actor(alice, bob) -> tuple[Table, object]:
    table = friends_table(alice, bob, seat_count=2)
    services.hand_start(table_id=table.pk, seq=table.seq)
    table = Table.objects.get(pk=table.pk)
    actor = hand_state(table).actor
    return table, Seat.objects.get(table=table, number=actor).user


async def test_raises_to_huge_or_negative_amounts_are_illegal_and_lose_no_chip(alice, bob):
    table, to_act = await sync_to_async(dealt_with_actor)(alice, bob)
    client = await Client.open(to_act, table.pk)
    assert client.table["legal"] is not None
    for amount in (HUGE, -HUGE, -1, 0):
        message = {
            "type": "act",
            "action": "raise",
            "amount": amount,
            "decision": client.table["decision"],
        }
        assert (await client.error(message))["code"] == "illegal_action"
    assert (await sync_to_async(Table.objects.get)(pk=table.pk)).seq == table.seq
    assert await client.is_quiet()
    await client.close()

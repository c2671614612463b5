"""The rebuy message over the socket: a busted player is topped up, anyone else told why not."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tables.models import ChipMovement, Seat, Table
from tests.tables.helpers import friends_table
from tests.tables.sockets import Client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]


def facts(table_id: int) -> tuple:
    seats = tuple(Seat.objects.filter(table_id=table_id).values_list("number", "stack"))
    return Table.objects.get(pk=table_id).seq, seats, ChipMovement.objects.count()


async def test_a_rebuy_with_chips_or_without_a_seat_gets_an_error_and_changes_nothing(
    alice, bob, carol
):
    table = await sync_to_async(friends_table)(alice, bob, starting_stack=400)
    before = await sync_to_async(facts)(table.pk)
    seated, spectator = await Client.open(alice, table.pk), await Client.open(carol, table.pk)
    assert (await seated.error({"type": "rebuy"}))["code"] == "not_busted"
    assert (await spectator.error({"type": "rebuy"}))["code"] == "not_seated"
    assert (await spectator.error({"type": "rebuy", "amount": "lots"}))["code"] == "not_seated"
    assert await sync_to_async(facts)(table.pk) == before
    await seated.close()
    await spectator.close()


async def test_a_busted_player_rebuys_and_everyone_sees_the_ledger(alice, bob, carol):
    table = await sync_to_async(friends_table)(alice, bob, starting_stack=400)
    await sync_to_async(Seat.objects.filter(table=table, user=alice).update)(stack=0)
    await sync_to_async(Seat.objects.filter(table=table, user=bob).update)(stack=800)
    seated, spectator = await Client.open(alice, table.pk), await Client.open(carol, table.pk)
    await seated.send({"type": "rebuy"})
    seen = await spectator.snapshot(seq=seated.table["seq"] + 1)
    alice_row = next(r for r in seen["ledger"] if r["name"] == alice.public_name)
    assert alice_row == {
        "name": alice.public_name,
        "bought_in": 800,
        "cashed_out": 0,
        "corrected": 0,
        "moved": 0,
        "stack": 400,
        "net": -400,
    }
    assert (await seated.snapshot())["seats"][0]["stack"] == 400
    assert (await seated.error({"type": "rebuy"}))["code"] == "not_busted", "only once"
    await seated.close()
    await spectator.close()


async def test_a_deal_at_a_friends_table_is_refused_over_the_socket(alice, bob):
    table = await sync_to_async(friends_table)(alice, bob, starting_stack=400)
    seated = await Client.open(alice, table.pk)
    proposal = {"type": "propose_deal", "method": "icm"}
    assert (await seated.error(proposal))["code"] == "cannot_deal"
    assert (await seated.error({"type": "answer_deal", "accept": True}))["code"] == "no_deal"
    assert (await seated.error({"type": "propose_deal", "method": "x"}))["code"] == "bad_message"
    await seated.close()

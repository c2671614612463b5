"""Taking back a leave made during a hand: {"type": "stay"}."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

import engine
from tables import services
from tables.models import Seat, Table
from tests.tables.helpers import act, deal, friends_table, state_of
from tests.tables.sockets import Client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]


def finish_the_hand(table: Table) -> None:
    while not state_of(table).is_over:
        legal = engine.legal_actions(state_of(table))
        act(table, "check" if legal.can_check else "call")


def test_a_player_who_stays_keeps_the_seat_after_the_hand(alice, bob, carol):
    table = friends_table(alice, bob, carol)
    deal(table)
    services.seat_leave(table_id=table.pk, user=carol)
    assert Seat.objects.get(table=table, user=carol).is_leaving
    services.seat_stay(table_id=table.pk, user=carol)
    finish_the_hand(table)
    seat = Seat.objects.get(table=table, user=carol)
    assert not seat.is_leaving and seat.stack > 0


async def test_leaving_shows_in_the_snapshot_and_stay_takes_it_back(alice, bob, carol):
    table = await sync_to_async(friends_table)(alice, bob, carol)
    await sync_to_async(deal)(table)
    client = await Client.open(carol, table.pk)
    seat = client.table["your_seat"]
    assert client.table["seats"][seat]["is_leaving"] is False
    await client.send({"type": "leave"})
    assert (await client.snapshot())["seats"][seat]["is_leaving"] is True
    await client.send({"type": "stay"})
    assert (await client.snapshot())["seats"][seat]["is_leaving"] is False
    await client.close()


async def test_stay_without_leaving_or_a_seat_gets_an_error_and_changes_nothing(alice, bob, carol):
    table = await sync_to_async(friends_table)(alice, bob)
    seq = table.seq
    seated, spectator = await Client.open(alice, table.pk), await Client.open(carol, table.pk)
    assert (await seated.error({"type": "stay"}))["code"] == "not_leaving"
    assert (await spectator.error({"type": "stay"}))["code"] == "not_seated"
    assert (await seated.error({"type": "stay", "seat": "x"}))["code"] == "not_leaving"
    assert (await sync_to_async(Table.objects.get)(pk=table.pk)).seq == seq
    await seated.close()
    await spectator.close()

"""The host ends a friends' game: everyone cashes out, the ledger stays, nothing more
happens at the table."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

import engine
from tables import selectors, services
from tables.errors import NotHost, TableClosed
from tables.models import ChipMovement, Seat, SeatRequest
from tables.selectors import tables_with_free_seats
from tests.tables.helpers import act, deal, fresh, friends_table, state_of
from tests.tables.sockets import Client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]


def play_out(table):
    while not state_of(table).is_over:
        legal = engine.legal_actions(state_of(table))
        act(table, "check" if legal.can_check else "call")


def net_by_player(table) -> dict[str, int]:
    view = selectors.table_snapshot(table_id=table.pk, user=None)
    return {row["name"]: row["net"] for row in view["ledger"]}


def test_ending_between_hands_cashes_everyone_out_and_keeps_the_ledger(alice, bob, carol):
    table = friends_table(alice, bob, carol, starting_stack=800)
    for _ in range(10):  # a three-way split pot gives everyone their chips back: deal again
        deal(table)
        play_out(table)
        stacks = {seat.user.username: seat.stack for seat in fresh(table).seats.all()}
        if sorted(stacks.values()) != [800, 800, 800]:
            break
    assert sorted(stacks.values()) != [800, 800, 800], "the hand moved chips"

    services.table_close(table_id=table.pk, user=alice)

    closed = fresh(table)
    assert closed.closed_at is not None and closed.wake_at is None
    assert not Seat.objects.filter(table=table).exists()
    cash_outs = ChipMovement.objects.filter(table=table, kind="cash_out")
    assert {m.user.username: m.amount for m in cash_outs} == stacks
    nets = net_by_player(table)
    assert nets == {name: stack - 800 for name, stack in stacks.items()}
    assert sum(nets.values()) == 0, "what one won another lost"
    view = selectors.table_snapshot(table_id=table.pk, user=bob)
    assert view["closed_at"] is not None and view["waiting_for"] == "The host ended the game"
    csv_rows = selectors.ledger_movements(table_id=table.pk, user=bob)
    assert len(csv_rows) == 6, "three buy-ins, three cash-outs: bob can still download them"


def test_ending_during_a_hand_plays_it_out_first(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    services.table_close(table_id=table.pk, user=alice)
    assert fresh(table).closes_after_hand and fresh(table).closed_at is None
    assert Seat.objects.filter(table=table).count() == 2, "still playing this hand"
    with pytest.raises(TableClosed):
        services.seat_take(table_id=table.pk, user=alice, seat=5)  # already seated elsewhere
    play_out(table)
    closed = fresh(table)
    assert closed.closed_at is not None and not closed.closes_after_hand
    assert closed.next_hand_at is None, "no next hand"
    assert not Seat.objects.filter(table=table).exists()
    assert sum(net_by_player(table).values()) == 0


def test_after_the_end_nobody_sits_and_the_host_controls_are_refused(alice, bob, carol):
    table = friends_table(alice, bob)
    services.table_set_approvals(table_id=table.pk, user=alice, seating=True)
    services.seat_take(table_id=table.pk, user=carol, seat=2)  # asks the host
    services.table_close(table_id=table.pk, user=alice)
    assert not SeatRequest.objects.filter(table=table).exists(), "nobody is waiting any more"
    before = fresh(table).seq
    with pytest.raises(TableClosed):
        services.seat_take(table_id=table.pk, user=carol, seat=2)
    with pytest.raises(TableClosed):
        services.table_close(table_id=table.pk, user=alice)
    with pytest.raises(TableClosed):
        services.table_pause(table_id=table.pk, user=alice)
    assert fresh(table).seq == before, "each refusal changed nothing"
    assert table.pk not in [t.pk for t in tables_with_free_seats()], "gone from the lobby"


def test_only_the_host_ends_the_game(alice, bob):
    table = friends_table(alice, bob)
    with pytest.raises(NotHost):
        services.table_close(table_id=table.pk, user=bob)
    assert fresh(table).closed_at is None
    assert Seat.objects.filter(table=table).count() == 2


async def until(client: Client, wanted) -> dict:
    """The table in the first snapshot ``client`` gets for which ``wanted`` holds."""
    while True:
        frame = await client.next_but_presence()
        if frame["type"] == "snapshot" and wanted(frame["table"]):
            return frame["table"]


async def test_players_hear_the_end_and_a_late_sit_is_refused(alice, bob, carol):
    table = await sync_to_async(friends_table)(alice, bob)
    host, player = await Client.open(alice, table.pk), await Client.open(bob, table.pk)
    watcher = await Client.open(carol, table.pk)
    await host.send({"type": "end_game"})
    seen = await until(host, lambda t: t["closes_after_hand"] or t["closed_at"])
    if seen["closes_after_hand"]:  # a hand was dealt: it is played out first
        assert seen["closed_at"] is None and seen["hand"] is not None
        actor = host if seen["to_act"] == 0 else player
        await actor.send({"type": "act", "action": "fold", "decision": seen["decision"]})
    for client in (host, player, watcher):
        ended = client.table
        if ended["closed_at"] is None:
            ended = await until(client, lambda t: t["closed_at"] is not None)
        assert ended["your_seat"] is None and ended["waiting_for"] == "The host ended the game"
    await watcher.send({"type": "sit", "seat": 3})
    error = await watcher.next_but_presence()
    assert error["type"] == "error" and error["code"] == "table_closed"
    await host.send({"type": "end_game"})
    error = await host.next_but_presence()
    assert error["code"] == "table_closed", "ended once"
    for client in (host, player, watcher):
        await client.close()

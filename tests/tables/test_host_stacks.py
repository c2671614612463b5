"""The host changes stacks: a correction of one stack, or chips moved between two
players. Each is ledger rows in the same transaction, so the ledger still adds up
to the chips on the table; everyone sees the change; bad amounts are refused."""

from __future__ import annotations

import csv
import io

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from tables import services
from tables.errors import BadSeat, BadStack, NotHost
from tables.models import ChipMovement, Seat
from tables.selectors import table_snapshot
from tests.tables.helpers import chips_on_table, deal, fresh, friends_table
from tests.tables.sockets import Client
from tests.tables.test_ledger import ledger_balance

pytestmark = pytest.mark.django_db


def stacks(table) -> dict[str, int]:
    return {
        s.user.username: s.stack for s in Seat.objects.filter(table=table).select_related("user")
    }


def ledger_rows(table, viewer) -> dict[str, dict]:
    return {row["name"]: row for row in table_snapshot(table_id=table.pk, user=viewer)["ledger"]}


def test_setting_a_stack_is_a_correction_and_the_ledger_still_adds_up(alice, bob, carol):
    table = friends_table(alice, bob, starting_stack=1000)
    services.stack_set(table_id=table.pk, user=alice, seat=1, stack=1500)
    services.stack_set(table_id=table.pk, user=alice, seat=0, stack=800)  # the host's own too

    assert stacks(table) == {"alice": 800, "bob": 1500}
    rows = ChipMovement.objects.filter(table=table, kind="correction").order_by("id")
    assert [(r.user.username, r.amount) for r in rows] == [("bob", 500), ("alice", -200)]
    assert ledger_balance(table) == chips_on_table(table) == 2300
    seen = ledger_rows(table, carol)
    assert (seen["bob"]["corrected"], seen["bob"]["stack"], seen["bob"]["net"]) == (500, 1500, 0)
    assert (seen["alice"]["corrected"], seen["alice"]["net"]) == (-200, 0)
    assert sum(row["net"] for row in seen.values()) == 0


def test_moving_chips_is_two_transfer_rows_that_add_up_to_nothing(alice, bob, carol):
    table = friends_table(alice, bob, carol, starting_stack=1000)
    services.chips_move(table_id=table.pk, user=alice, from_seat=2, to_seat=1, amount=300)

    assert stacks(table) == {"alice": 1000, "bob": 1300, "carol": 700}
    rows = ChipMovement.objects.filter(table=table, kind="transfer").order_by("id")
    assert [(r.user.username, r.amount) for r in rows] == [("carol", -300), ("bob", 300)]
    assert ledger_balance(table) == chips_on_table(table) == 3000
    seen = ledger_rows(table, alice)
    assert (seen["bob"]["moved"], seen["bob"]["net"]) == (300, 300)
    assert (seen["carol"]["moved"], seen["carol"]["net"]) == (-300, -300)
    assert sum(row["net"] for row in seen.values()) == 0
    # And the player leaves with the chips moved to them: still adding up.
    services.seat_leave(table_id=table.pk, user=bob)
    assert ledger_balance(table) == chips_on_table(table) == 1700


def test_everyone_reads_the_change_in_the_snapshot(alice, bob, carol):
    table = friends_table(alice, bob, starting_stack=1000)
    services.chips_move(table_id=table.pk, user=alice, from_seat=0, to_seat=1, amount=500)
    services.stack_set(table_id=table.pk, user=alice, seat=1, stack=2000)
    changes = table_snapshot(table_id=table.pk, user=carol)["stack_changes"]
    assert changes == [
        {"hand_number": 0, "kind": "move", "amount": 500, "from": "alice", "to": "bob"},
        {"hand_number": 0, "kind": "set", "name": "bob", "from": 1500, "to": 2000},
    ]


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        ({"seat": 1, "stack": -1}, "A stack is from 0"),
        ({"seat": 1, "stack": 10**10}, "A stack is from 0"),
        ({"seat": 1, "stack": 1000}, "has 1000 already"),
        ({"from_seat": 1, "to_seat": 0, "amount": 1001}, "has only 1000"),
        ({"from_seat": 1, "to_seat": 0, "amount": 0}, "at least 1 chip"),
        ({"from_seat": 1, "to_seat": 0, "amount": -5}, "at least 1 chip"),
        ({"from_seat": 1, "to_seat": 1, "amount": 5}, "two different players"),
    ],
)
def test_impossible_changes_are_refused_and_change_nothing(alice, bob, change, refusal):
    table = friends_table(alice, bob, starting_stack=1000)
    service = services.stack_set if "stack" in change else services.chips_move
    with pytest.raises(BadStack, match=refusal):
        service(table_id=table.pk, user=alice, **change)
    assert stacks(table) == {"alice": 1000, "bob": 1000}
    assert not ChipMovement.objects.filter(
        table=table, kind__in=["correction", "transfer"]
    ).exists()


def test_only_the_host_changes_stacks_and_only_of_someone_seated(alice, bob):
    table = friends_table(alice, bob, starting_stack=1000)
    with pytest.raises(NotHost):
        services.stack_set(table_id=table.pk, user=bob, seat=1, stack=5000)
    with pytest.raises(NotHost):
        services.chips_move(table_id=table.pk, user=bob, from_seat=0, to_seat=1, amount=500)
    with pytest.raises(BadSeat):
        services.stack_set(table_id=table.pk, user=alice, seat=4, stack=5000)
    assert stacks(table) == {"alice": 1000, "bob": 1000}


def test_a_stack_in_the_hand_in_play_waits_but_a_seat_out_of_it_does_not(alice, bob, carol):
    table = friends_table(alice, bob, starting_stack=1000)
    deal(table)
    services.seat_take(table_id=table.pk, user=carol, seat=4)  # joins after the deal
    with pytest.raises(BadStack, match="in the hand in play"):
        services.stack_set(table_id=table.pk, user=alice, seat=1, stack=5000)
    with pytest.raises(BadStack, match="in the hand in play"):
        services.chips_move(table_id=table.pk, user=alice, from_seat=4, to_seat=1, amount=100)
    before = chips_on_table(table)
    services.stack_set(table_id=table.pk, user=alice, seat=4, stack=1200)
    assert chips_on_table(table) == before + 200 == ledger_balance(table)
    assert fresh(table).stack_changes[-1]["hand_number"] == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_database_connections")
async def test_over_the_socket_everyone_sees_it_and_bad_values_are_refused(alice, bob, carol):
    table = await sync_to_async(friends_table)(alice, bob, starting_stack=1000)
    host, spectator = await Client.open(alice, table.pk), await Client.open(carol, table.pk)
    player = await Client.open(bob, table.pk)
    for bad in (
        {"type": "set_stack", "seat": 1, "stack": "1500"},
        {"type": "set_stack", "seat": 1, "stack": 1500.5},
        {"type": "set_stack", "seat": 1},
        {"type": "move_chips", "from_seat": 0, "to_seat": 1},
        {"type": "move_chips", "from_seat": 0, "to_seat": True, "amount": 5},
    ):
        assert (await host.error(bad))["code"] == "bad_message"
    assert (await host.error({"type": "set_stack", "seat": 1, "stack": -3}))["code"] == "bad_stack"
    refused = await player.error({"type": "move_chips", "from_seat": 0, "to_seat": 1, "amount": 9})
    assert refused["code"] == "not_host"

    await host.send({"type": "move_chips", "from_seat": 0, "to_seat": 1, "amount": 250})
    seen = await spectator.snapshot()
    assert [s["stack"] for s in seen["seats"][:2]] == [750, 1250]
    assert seen["stack_changes"][-1] == {
        "hand_number": 0,
        "kind": "move",
        "amount": 250,
        "from": "alice",
        "to": "bob",
    }
    for client in (host, spectator, player):
        await client.close()


def test_the_ledger_download_has_the_host_rows_signed(alice, bob, client):
    table = friends_table(alice, bob, starting_stack=1000)
    services.chips_move(table_id=table.pk, user=alice, from_seat=0, to_seat=1, amount=100)
    services.stack_set(table_id=table.pk, user=alice, seat=0, stack=1000)
    client.force_login(bob)
    response = client.get(reverse("tables:table_ledger_csv", kwargs={"table_id": table.pk}))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert [row[1:] for row in rows[1:]] == [
        ["alice", "buy_in", "1000"],
        ["bob", "buy_in", "1000"],
        ["alice", "transfer", "-100"],
        ["bob", "transfer", "100"],
        ["alice", "correction", "100"],
    ]

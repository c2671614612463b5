"""The host's word holds: with rebuys approved by the host, a busted player who
leaves and opens the table again asks for their fresh stack; a removed player
cannot sit again until the host lets them back. Over the table socket, as a page
would do it, with the ledger counted against the chips on the table."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from accounts.guests import guest_create
from tables import services
from tables.models import ChipMovement, Seat
from tests.tables.helpers import chips_on_table, friends_table
from tests.tables.sockets import Client
from tests.tables.test_ledger import ledger_balance

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]


def _kinds(table: Any, user: Any) -> list[str]:
    rows = ChipMovement.objects.filter(table=table, user=user).order_by("id")
    return list(rows.values_list("kind", flat=True))


def _approving_table(host: Any, player: Any, **approvals: bool) -> Any:
    """A table of ``host`` and ``player`` (seats 0 and 1), the host approving rebuys
    (and what ``approvals`` says) from now on, ``player`` busted between hands."""
    table = friends_table(host, player, starting_stack=1000)
    services.table_set_approvals(table_id=table.pk, user=host, rebuys=True, **approvals)
    Seat.objects.filter(table=table, user=player).update(stack=0)  # lost it all to the host
    Seat.objects.filter(table=table, user=host).update(stack=2000)
    return table


def _player(kind: str, make_user: Any) -> Any:
    return guest_create(nickname="Dave") if kind == "guest" else make_user("bob")


@pytest.mark.parametrize("kind", ["member", "guest"])
async def test_a_busted_player_who_leaves_and_comes_back_asks_the_host(kind, alice, make_user):
    player = await sync_to_async(_player)(kind, make_user)
    table = await sync_to_async(_approving_table)(alice, player)
    host, page = await Client.open(alice, table.pk), await Client.open(player, table.pk)

    await page.send({"type": "leave"})
    assert (await page.snapshot())["your_seat"] is None
    await host.snapshot()
    reopened = await Client.open(player, table.pk)  # the link opened again
    await reopened.send({"type": "sit", "seat": 4})
    seen = await reopened.snapshot()
    assert seen["your_seat"] is None, "no fresh stack without the host"
    asked = (await host.snapshot(seq=seen["seq"]))["seat_requests"]
    assert [(r["name"], r["seat"], r["is_rebuy"]) for r in asked] == [(player.public_name, 4, True)]
    assert await sync_to_async(_kinds)(table, player) == ["buy_in", "cash_out"]

    await host.send({"type": "answer_seat", "request": asked[0]["id"], "approve": True})
    after = await reopened.snapshot()
    assert after["your_seat"] == 4 and after["seats"][4]["stack"] == 1000
    assert await sync_to_async(_kinds)(table, player) == ["buy_in", "cash_out", "rebuy"]
    row = next(r for r in after["ledger"] if r["name"] == player.public_name)
    assert (row["bought_in"], row["stack"], row["net"]) == (2000, 1000, -1000)
    assert await sync_to_async(ledger_balance)(table) == await sync_to_async(chips_on_table)(table)
    for client in (host, page, reopened):
        await client.close()


async def test_a_refused_comeback_leaves_the_player_standing(alice, bob):
    table = await sync_to_async(_approving_table)(alice, bob)
    await sync_to_async(services.seat_leave)(table_id=table.pk, user=bob)
    host, page = await Client.open(alice, table.pk), await Client.open(bob, table.pk)
    await page.send({"type": "sit", "seat": 2})
    request = (await host.snapshot())["seat_requests"][0]["id"]
    await host.send({"type": "answer_seat", "request": request, "approve": False})
    assert (await page.snapshot(seq=host.table["seq"] + 1))["your_seat"] is None
    assert await sync_to_async(_kinds)(table, bob) == ["buy_in", "cash_out"]
    await host.close()
    await page.close()


async def test_a_stack_brought_back_and_a_first_sit_down_need_no_answer(alice, bob, carol):
    table = await sync_to_async(_approving_table)(alice, bob)
    await sync_to_async(Seat.objects.filter(table=table, user=bob).update)(stack=300)
    await sync_to_async(services.seat_leave)(table_id=table.pk, user=bob)
    page, newcomer = await Client.open(bob, table.pk), await Client.open(carol, table.pk)

    await page.send({"type": "sit", "seat": 3})
    back = await page.snapshot()
    assert back["your_seat"] == 3 and back["seats"][3]["stack"] == 300, "their own chips"
    await newcomer.send({"type": "sit", "seat": 5})
    assert (await newcomer.snapshot(seq=back["seq"] + 1))["your_seat"] == 5
    assert await sync_to_async(_kinds)(table, carol) == ["buy_in"]
    await page.close()
    await newcomer.close()


async def test_with_sit_downs_approved_a_comeback_for_a_fresh_stack_says_so(alice, bob):
    table = await sync_to_async(_approving_table)(alice, bob, seating=True)
    await sync_to_async(services.seat_leave)(table_id=table.pk, user=bob)
    host, page = await Client.open(alice, table.pk), await Client.open(bob, table.pk)
    await page.send({"type": "sit", "seat": 2})
    assert [r["is_rebuy"] for r in (await host.snapshot())["seat_requests"]] == [True]
    # The host stops approving sit-downs: the rebuy still waits for an answer.
    await host.send({"type": "set_approvals", "seating": False})
    assert [r["is_rebuy"] for r in (await host.snapshot())["seat_requests"]] == [True]
    await host.send({"type": "set_approvals", "rebuys": False})
    assert (await host.snapshot())["seat_requests"] == []
    await host.close()
    await page.close()


async def test_a_removed_player_cannot_sit_again_until_the_host_allows_them_back(alice, bob, carol):
    table = await sync_to_async(friends_table)(alice, bob)
    host, page = await Client.open(alice, table.pk), await Client.open(bob, table.pk)
    await host.send({"type": "remove", "seat": 1})
    gone = await page.snapshot()
    assert gone["your_seat"] is None
    assert gone["barred"] == [{"user_id": bob.pk, "name": bob.public_name}]
    assert (await page.next_but_presence())["type"] == "notice"

    refused = await page.error({"type": "sit", "seat": 1})
    assert refused["code"] == "removed_by_host"
    assert "host" in refused["message"]
    again = await Client.open(bob, table.pk)  # a fresh page is no way round it
    assert (await again.error({"type": "sit", "seat": 4}))["code"] == "removed_by_host"
    await sync_to_async(services.table_set_approvals)(table_id=table.pk, user=alice, seating=True)
    await again.snapshot()
    assert (await again.error({"type": "sit", "seat": 4}))["code"] == "removed_by_host"
    await host.snapshot()
    assert (await host.snapshot())["seat_requests"] == [], "not even a request"

    nosy = await Client.open(carol, table.pk)
    assert (await nosy.error({"type": "allow_back", "player": bob.pk}))["code"] == "not_host"
    await host.send({"type": "allow_back", "player": bob.pk})
    assert (await host.snapshot())["barred"] == []
    assert (await host.error({"type": "allow_back", "player": bob.pk}))["code"] == "no_request"
    await sync_to_async(services.table_set_approvals)(table_id=table.pk, user=alice, seating=False)
    await again.send({"type": "sit", "seat": 4})
    while (seen := await again.snapshot())["your_seat"] is None:
        assert seen["seat_requests"] == [], "nothing to ask for"
    assert seen["your_seat"] == 4
    assert await sync_to_async(_kinds)(table, bob) == ["buy_in", "cash_out", "comeback"]
    for client in (host, page, again, nosy):
        await client.close()

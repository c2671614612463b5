"""The ledger of a friends' table: every chip bought in, rebought and cashed out."""

from __future__ import annotations

import csv
import io

import pytest
from django.db.models import Sum

import engine
from tables import services
from tables.errors import CannotRebuy, NotBusted, NotSeated
from tables.models import ChipMovement, Seat, Table
from tables.selectors import table_snapshot
from tests.tables.helpers import act, chips_on_table, deal, fresh, friends_table, state_of

pytestmark = pytest.mark.django_db


def ledger_balance(table: Table) -> int:
    """Chips brought to the table (buy-ins, rebuys, stacks brought back) and put on
    or taken off by the host's corrections, less chips cashed out."""
    totals = dict(
        ChipMovement.objects.filter(table=table)
        .values_list("kind")
        .annotate(total=Sum("amount"))
        .values_list("kind", "total")
    )
    brought = totals.get("buy_in", 0) + totals.get("rebuy", 0) + totals.get("comeback", 0)
    host_changes = totals.get("correction", 0) + totals.get("transfer", 0)  # signed
    return brought + host_changes - totals.get("cash_out", 0)


def movements(table: Table) -> list[tuple[str, str, int]]:
    rows = ChipMovement.objects.filter(table=table).order_by("id")
    return [(m.user.username, m.kind, m.amount) for m in rows.select_related("user")]


def play_all_in(table: Table) -> None:
    """One hand where the first to act shoves and everyone calls."""
    deal(table)
    while not state_of(table).is_over:
        legal = engine.legal_actions(state_of(table))
        if legal.can_raise:
            act(table, "raise", legal.max_raise_to)
        else:
            act(table, "check" if legal.can_check else "call")


def bust_someone(table: Table) -> Seat:
    """All-in hands until a seat has no chips (a split pot just goes again)."""
    for _ in range(50):
        play_all_in(table)
        busted = Seat.objects.filter(table=table, stack=0).first()
        if busted is not None:
            return busted
    raise AssertionError("fifty all-in hands and nobody busted")


def stack_of(table: Table, user) -> int:
    return Seat.objects.get(table=table, user=user).stack


def test_sitting_down_buys_in_and_leaving_cashes_out_the_stack(alice, bob):
    table = friends_table(alice, bob, starting_stack=1000)
    assert movements(table) == [("alice", "buy_in", 1000), ("bob", "buy_in", 1000)]
    deal(table)
    act(table, "fold")
    left = {u.username: stack_of(table, u) for u in (alice, bob)}
    assert sorted(left.values()) == [990, 1010]
    services.seat_leave(table_id=table.pk, user=alice)
    assert movements(table)[-1] == ("alice", "cash_out", left["alice"])
    assert ledger_balance(table) == chips_on_table(table) == left["bob"]


def test_leaving_during_a_hand_cashes_out_what_is_left_after_it(alice, bob, carol):
    table = friends_table(alice, bob, carol, starting_stack=1000)
    deal(table)
    leaver = next(
        u for u in (alice, bob, carol) if Seat.objects.get(table=table, user=u).number != 0
    )
    services.seat_leave(table_id=table.pk, user=leaver)
    assert ChipMovement.objects.filter(kind="cash_out").count() == 0, "not before the hand ends"
    while not state_of(table).is_over:
        legal = engine.legal_actions(state_of(table))
        act(table, "check" if legal.can_check else "call")
    out = ChipMovement.objects.get(table=table, kind="cash_out")
    assert out.user == leaver and not Seat.objects.filter(table=table, user=leaver).exists()
    assert ledger_balance(table) == chips_on_table(table) == 3000 - out.amount


def test_coming_back_brings_back_the_stack_cashed_out(alice, bob):
    table = friends_table(alice, bob, starting_stack=1000)
    deal(table)
    act(table, "fold")
    short = min((alice, bob), key=lambda u: stack_of(table, u))
    services.seat_leave(table_id=table.pk, user=short)
    services.seat_take(table_id=table.pk, user=short, seat=3)
    assert stack_of(table, short) == 990, "not a fresh 1000"
    assert movements(table)[-1] == (short.username, "comeback", 990)
    assert ledger_balance(table) == chips_on_table(table) == 2000


def test_leaving_and_sitting_down_again_is_no_new_buy_in(alice, bob, client):
    table = friends_table(alice, bob, starting_stack=1000)
    deal(table)
    act(table, "fold")
    short = min((alice, bob), key=lambda u: stack_of(table, u))
    for seat in (3, 4):  # out and back in, twice
        services.seat_leave(table_id=table.pk, user=short)
        services.seat_take(table_id=table.pk, user=short, seat=seat)
    row = next(
        r
        for r in table_snapshot(table_id=table.pk, user=bob)["ledger"]
        if r["name"] == short.public_name
    )
    assert row == {
        "name": short.public_name,
        "bought_in": 1000,  # one buy-in: the 990 came back from the table itself, twice
        "cashed_out": 0,  # and is at the table again
        "corrected": 0,
        "moved": 0,
        "stack": 990,
        "net": -10,
    }
    services.seat_leave(table_id=table.pk, user=short)
    row = next(
        r
        for r in table_snapshot(table_id=table.pk, user=bob)["ledger"]
        if r["name"] == short.public_name
    )
    assert (row["bought_in"], row["cashed_out"], row["stack"], row["net"]) == (1000, 990, 0, -10)
    client.force_login(short)
    text = client.get(f"/tables/{table.pk}/ledger.csv").content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert [r[2:] for r in rows[1:] if r[1] == short.public_name] == [
        ["buy_in", "1000"],
        ["cash_out", "990"],
        ["comeback", "990"],
        ["cash_out", "990"],
        ["comeback", "990"],
        ["cash_out", "990"],
    ]
    assert ledger_balance(table) == chips_on_table(table) == 1010


def test_a_busted_player_who_leaves_comes_back_with_the_starting_stack(alice, bob):
    table = friends_table(alice, bob, starting_stack=400, big_blind=20, small_blind=10)
    busted = bust_someone(table).user
    services.seat_leave(table_id=table.pk, user=busted)
    assert movements(table)[-1] == (busted.username, "cash_out", 0)
    services.seat_take(table_id=table.pk, user=busted, seat=4)
    assert stack_of(table, busted) == 400
    assert ledger_balance(table) == chips_on_table(table) == 1200


def test_a_busted_player_rebuys_the_starting_stack(alice, bob):
    table = friends_table(alice, bob, starting_stack=400, big_blind=20, small_blind=10)
    busted = bust_someone(table).user
    services.seat_rebuy(table_id=table.pk, user=busted)
    assert stack_of(table, busted) == 400
    assert movements(table)[-1] == (busted.username, "rebuy", 400)
    assert ledger_balance(table) == chips_on_table(table) == 1200


def test_a_rebuy_is_refused_with_chips_in_a_hand_or_without_a_seat(alice, bob, carol):
    table = friends_table(alice, bob, starting_stack=400, big_blind=20, small_blind=10)
    before = movements(table)
    with pytest.raises(NotBusted):
        services.seat_rebuy(table_id=table.pk, user=alice)
    with pytest.raises(NotSeated):
        services.seat_rebuy(table_id=table.pk, user=carol)
    deal(table)
    with pytest.raises(CannotRebuy):
        services.seat_rebuy(table_id=table.pk, user=alice)
    assert movements(table) == before
    assert [stack_of(table, u) for u in (alice, bob)] == [400, 400]


def test_practice_tables_keep_no_ledger_and_refuse_rebuys(alice):
    table = services.table_create_practice(user=alice, bots=1)
    Seat.objects.filter(table=table, user=alice).update(stack=0)
    with pytest.raises(CannotRebuy):
        services.seat_rebuy(table_id=table.pk, user=alice)
    assert not ChipMovement.objects.exists()
    assert table_snapshot(table_id=table.pk, user=alice)["ledger"] is None


def test_everyone_sees_who_is_up_and_who_is_down(alice, bob, carol):
    table = friends_table(alice, bob, starting_stack=1000)
    deal(table)
    act(table, "fold")
    winner = max((alice, bob), key=lambda u: stack_of(table, u))
    loser = bob if winner == alice else alice
    services.seat_leave(table_id=table.pk, user=loser)
    ledger = table_snapshot(table_id=table.pk, user=carol)["ledger"]
    by_name = {row["name"]: row for row in ledger}
    assert by_name[winner.public_name] == {
        "name": winner.public_name,
        "bought_in": 1000,
        "cashed_out": 0,
        "corrected": 0,
        "moved": 0,
        "stack": 1010,
        "net": 10,
    }
    assert by_name[loser.public_name] == {
        "name": loser.public_name,
        "bought_in": 1000,
        "cashed_out": 990,
        "corrected": 0,
        "moved": 0,
        "stack": 0,
        "net": -10,
    }
    assert sum(row["net"] for row in ledger) == 0


def test_the_owner_and_players_download_the_ledger_and_nobody_else(alice, bob, carol, client):
    table = friends_table(alice, bob, starting_stack=1000)
    services.seat_leave(table_id=table.pk, user=bob)
    url = f"/tables/{table.pk}/ledger.csv"
    assert client.get(url).status_code == 302, "signed out: sent to sign in"
    client.force_login(carol)
    assert client.get(url).status_code == 404
    for user in (alice, bob):
        client.force_login(user)
        response = client.get(url)
        assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
        rows = list(csv.reader(io.StringIO(response.content.decode())))
        assert rows[0] == ["at", "player", "kind", "amount"]
        assert [r[1:] for r in rows[1:]] == [
            [alice.public_name, "buy_in", "1000"],
            [bob.public_name, "buy_in", "1000"],
            [bob.public_name, "cash_out", "1000"],
        ]
    assert client.get(f"/tables/{fresh(table).pk + 999}/ledger.csv").status_code == 404

"""A snapshot's ledger, whose totals each process keeps between changes
(``tables.ledger_summary.ledger_summary``): still exact after a new movement, a new
name or a deleted account. Committed for real, since totals read inside a
transaction are never kept."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import services
from tables.models import Table
from tables.selectors import table_snapshot
from tables.services import play
from tests.tables.helpers import act, deal, friends_table

pytestmark = pytest.mark.django_db(transaction=True)


def ledger(table: Table, viewer: Any) -> dict[str, tuple[int, int, int, int]]:
    rows = table_snapshot(table_id=table.pk, user=viewer)["ledger"]
    return {r["name"]: (r["bought_in"], r["cashed_out"], r["stack"], r["net"]) for r in rows}


def movements_read_by(snapshot: Any) -> int:
    with CaptureQueriesContext(connection) as queries:
        snapshot()
    return sum('"tables_chipmovement"' in query["sql"] for query in queries.captured_queries)


def test_the_movements_are_read_again_only_when_the_ledger_changed(alice, bob):
    table = friends_table(alice, bob, starting_stack=1000)
    assert ledger(table, alice)["bob"] == (1000, 0, 1000, 0)
    deal(table)
    act(table, "fold")  # changes, but no chips cross the table's edge
    assert movements_read_by(lambda: ledger(table, alice)) == 0
    services.seat_leave(table_id=table.pk, user=bob)  # a cash-out
    assert movements_read_by(lambda: ledger(table, alice)) == 0, "its snapshots read it"
    assert ledger(table, alice)["bob"][1:] in {(990, 0, -10), (1010, 0, 10)}


def test_a_movement_another_process_wrote_shows_at_once(alice, bob, carol, monkeypatch):
    table = friends_table(alice, bob, starting_stack=1000)
    assert "carol" not in ledger(table, alice)
    # Carol sits down through another server: this one builds no snapshot of it.
    monkeypatch.setattr(play.messages, "snapshot_messages", lambda *args, **kwargs: [])
    services.seat_take(table_id=table.pk, user=carol, seat=2)  # her buy-in
    assert ledger(table, alice)["carol"] == (1000, 0, 1000, 0)
    services.seat_leave(table_id=table.pk, user=carol)  # her cash-out
    assert ledger(table, alice)["carol"] == (1000, 1000, 0, 0)
    services.seat_take(table_id=table.pk, user=carol, seat=3)  # and her stack back
    assert ledger(table, alice)["carol"] == (1000, 0, 1000, 0)


def test_new_names_show_at_once_seated_or_not(alice, bob, carol):
    table = friends_table(alice, bob, carol, starting_stack=1000)
    services.seat_leave(table_id=table.pk, user=carol)
    assert set(ledger(table, alice)) == {"alice", "bob", "carol"}
    for user, name in ((bob, "Bobby"), (carol, "Caz")):  # seated, and gone
        user.display_name = name
        user.save()
    assert set(ledger(table, alice)) == {"alice", "Bobby", "Caz"}


def test_a_deleted_account_joins_the_former_members_row(alice, bob, carol):
    table = friends_table(alice, bob, carol, starting_stack=1000)
    services.seat_leave(table_id=table.pk, user=bob)
    services.seat_leave(table_id=table.pk, user=carol)
    assert list(ledger(table, alice)) == ["alice", "bob", "carol"]
    carol.delete()
    assert list(ledger(table, alice)) == ["alice", "bob", "Former member"]
    bob.delete()  # the former members' row takes the place of the first of them
    assert ledger(table, alice) == {
        "alice": (1000, 0, 1000, 0),
        "Former member": (2000, 2000, 0, 0),
    }

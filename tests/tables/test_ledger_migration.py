"""Ledgers written before comebacks had their own kind: a stack brought back was a buy-in."""

from __future__ import annotations

import pytest

from tests.support.migrations import migrate, scratch_database

BEFORE = [("tables", "0016_practice_auto_rebuy")]
AFTER = [("tables", "0017_chip_movement_comeback")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_turns_a_stack_brought_back_into_a_comeback() -> None:
    with scratch_database() as database:
        old = migrate(database, BEFORE)
        members = old.get_model("accounts", "User").objects
        alice, bob = (members.create(username=name).pk for name in ("alice", "bob"))
        table = old.get_model("tables", "Table").objects.create(name="Old")
        movement = old.get_model("tables", "ChipMovement").objects
        for user_id, kind, amount in [
            (alice, "buy_in", 1500),
            (bob, "buy_in", 1500),
            (alice, "cash_out", 1460),
            (bob, "cash_out", 0),  # busted: a fresh buy-in follows
            (alice, "buy_in", 1460),  # her stack, back
            (bob, "buy_in", 1500),
        ]:
            movement.create(table=table, user_id=user_id, kind=kind, amount=amount)
        new = migrate(database, AFTER)
        rows = new.get_model("tables", "ChipMovement").objects.order_by("id")
        assert [r.kind for r in rows] == [
            "buy_in",
            "buy_in",
            "cash_out",
            "cash_out",
            "comeback",
            "buy_in",
        ]

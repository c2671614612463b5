"""Ledgers written before comebacks had their own kind: a stack brought back was a buy-in."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tables", "0016_practice_auto_rebuy")]
AFTER = [("tables", "0017_chip_movement_comeback")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_turns_a_stack_brought_back_into_a_comeback(alice, bob) -> None:
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(BEFORE)
        old = executor.loader.project_state(BEFORE).apps
        table = old.get_model("tables", "Table").objects.create(name="Old")
        movement = old.get_model("tables", "ChipMovement").objects
        for user_id, kind, amount in [
            (alice.pk, "buy_in", 1500),
            (bob.pk, "buy_in", 1500),
            (alice.pk, "cash_out", 1460),
            (bob.pk, "cash_out", 0),  # busted: a fresh buy-in follows
            (alice.pk, "buy_in", 1460),  # her stack, back
            (bob.pk, "buy_in", 1500),
        ]:
            movement.create(table=table, user_id=user_id, kind=kind, amount=amount)
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        rows = new.get_model("tables", "ChipMovement").objects.order_by("id")
        assert [r.kind for r in rows] == [
            "buy_in",
            "buy_in",
            "cash_out",
            "cash_out",
            "comeback",
            "buy_in",
        ]
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

"""Tables opened before links had keys each get a key of their own."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tables", "0024_runout_reveal")]
AFTER = [("tables", "0025_table_invite_key")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_existing_table_a_key_of_its_own(alice) -> None:
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(BEFORE)
        old = executor.loader.project_state(BEFORE).apps
        tables = old.get_model("tables", "Table").objects
        ids = [tables.create(name=f"Old {n}", owner_id=alice.pk).pk for n in range(3)]
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        keys = new.get_model("tables", "Table").objects.filter(pk__in=ids)
        found = list(keys.values_list("invite_key", flat=True))
        assert len(set(found)) == 3 and all(len(key) == 16 for key in found)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

"""Tables opened before links had keys each get a key of their own."""

from __future__ import annotations

import pytest

from tests.support.migrations import migrate, scratch_database

BEFORE = [("tables", "0024_runout_reveal")]
AFTER = [("tables", "0025_table_invite_key")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_existing_table_a_key_of_its_own() -> None:
    with scratch_database() as database:
        old = migrate(database, BEFORE)
        alice = old.get_model("accounts", "User").objects.create(username="alice")
        tables = old.get_model("tables", "Table").objects
        ids = [tables.create(name=f"Old {n}", owner_id=alice.pk).pk for n in range(3)]
        new = migrate(database, AFTER)
        keys = new.get_model("tables", "Table").objects.filter(pk__in=ids)
        found = list(keys.values_list("invite_key", flat=True))
        assert len(set(found)) == 3 and all(len(key) == 16 for key in found)

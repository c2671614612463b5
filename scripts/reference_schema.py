"""Give an older commit's database this checkout's schema, so that this checkout's load
test can drive that commit's server: ``.venv/bin/python scripts/reference_schema.py``,
with that server's FELT_HOME and SECRET_KEY (or DATABASE_URL), as ``manage.py`` would
be run. ``scripts/compare_speed.py`` and ``scripts/bench_idle.py`` run it at REF.

The load test writes its members, club and tournament with this checkout's models,
so the database needs this checkout's tables and columns: ``migrate`` adds them. But
the older server inserts rows too (every hand, a moved player's seat), naming only the
columns its own code knows, and Django gives a new column its default in Python, not
in the database: such an insert would break the NOT NULL of a column it has never
heard of. So each column ``migrate`` added to a table the older code writes, NOT NULL
with a default, also gets that default in the database (a unique one, a random key the
database makes). The older server's rows are then what its own code writes, with the
new columns as this checkout would fill them; nothing else changes.

A table the load test never writes but the older server does, whose shape changed
in a way no database default mends, is put back as the older code has it:
``KEPT_AS_BEFORE`` names the migration that changed it, which is undone when the
older database does not have it yet (the presence leases: a server before
0029_presence_holders writes each lease's own ``renewed_at`` and knows no holder).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, models  # noqa: E402
from django.db.migrations import AlterField  # noqa: E402
from django.db.migrations.executor import MigrationExecutor  # noqa: E402
from django.db.models.expressions import RawSQL  # noqa: E402

# A random 32-character key, made by the database for each row (a unique column).
RANDOM_KEY = {"sqlite": "lower(hex(randomblob(16)))", "postgresql": "md5(random()::text)"}


# app -> (the migration that reshaped a table only the server writes, the one before it)
KEPT_AS_BEFORE = {"tables": ("0029_presence_holders", "0028_players_cut")}


def columns() -> dict[str, set[str]]:
    """Each table's columns, now."""
    with connection.cursor() as cursor:
        return {
            table: {c.name for c in connection.introspection.get_table_description(cursor, table)}
            for table in connection.introspection.table_names(cursor)
        }


def needs_database_default(field: models.Field[Any, Any], known: set[str]) -> bool:
    """A column the older code does not know and cannot leave out of an insert."""
    return (
        field.column not in known
        and not field.null
        and field.has_default()
        and field.db_default is models.NOT_PROVIDED
    )


def with_database_default(field: models.Field[Any, Any]) -> models.Field[Any, Any]:
    """``field`` again, its default given to the database too."""
    _, _, args, kwargs = field.deconstruct()
    if field.unique:
        kwargs["db_default"] = RawSQL(RANDOM_KEY[connection.vendor], [])
    else:
        kwargs["db_default"] = field.get_default()
    return type(field)(*args, **kwargs)


def applied(app_label: str) -> set[str]:
    """The migrations of ``app_label`` the database has."""
    loader = MigrationExecutor(connection).loader
    return {name for app, name in loader.applied_migrations if app == app_label}


def undo_what_the_older_server_cannot_write(older: dict[str, set[str]]) -> None:
    """Undo each ``KEPT_AS_BEFORE`` migration the older database did not have. It must
    still be its app's last: undoing it would otherwise undo the later ones too."""
    for app_label, (reshaping, before_it) in KEPT_AS_BEFORE.items():
        if reshaping in older[app_label]:
            continue
        leaves = MigrationExecutor(connection).loader.graph.leaf_nodes(app_label)
        if leaves != [(app_label, reshaping)]:
            raise SystemExit(f"{app_label}.{reshaping} is no longer the last: read KEPT_AS_BEFORE")
        call_command("migrate", app_label, before_it, verbosity=0)


def main() -> int:
    before = columns()
    older = {app_label: applied(app_label) for app_label in KEPT_AS_BEFORE}
    call_command("migrate", verbosity=0)
    undo_what_the_older_server_cannot_write(older)
    # The models as the migrations know them, altered as a migration alters them: one
    # field at a time, each alteration seen by the next (SQLite remakes the table).
    state = MigrationExecutor(connection).loader.project_state()
    alterations = []
    for model in state.apps.get_models():
        known = before.get(model._meta.db_table)
        if known is None:  # a table new since: the older code never writes it
            continue
        for field in model._meta.concrete_fields:
            if needs_database_default(field, known):
                new = with_database_default(field)
                alterations.append(
                    (model._meta.app_label, AlterField(model.__name__, field.name, new))
                )
    with connection.schema_editor() as editor:
        for app_label, alteration in alterations:
            altered = state.clone()
            alteration.state_forwards(app_label, altered)
            alteration.database_forwards(app_label, editor, state, altered)
            state = altered
    given = ", ".join(f"{a.model_name}.{a.name}" for _, a in alterations) or "none needed"
    print(f"database defaults for the newer columns: {given}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

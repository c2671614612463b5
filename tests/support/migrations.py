"""A data migration's test on a scratch database of its own, migrated forward only.

Migrating the test database back to an old state and forward again made every later
migration run twice (on SQLite most rebuild their table): 10.6 s for the slowest such
test on an idle machine, and up to 46 s of `make test`'s busy runs. A new, empty
database migrated to the state before the migration under test runs only the
migrations up to it, once (0.5 s), and a test that fails half-way leaves the test
database as it was (docs/testing.md).
"""

from __future__ import annotations

import copy
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.apps.registry import Apps
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.executor import MigrationExecutor
from django.db.utils import load_backend

Targets = list[tuple[str, str]]


@contextmanager
def scratch_database() -> Iterator[BaseDatabaseWrapper]:
    """Django's default connection points at a new, empty database of the same kind
    while the block runs; then the database is dropped and the test database is the
    default again. Data migrations read and write through ``Model.objects`` (the
    default connection), so they reach the scratch database too."""
    test_database = connections[DEFAULT_DB_ALIAS]
    settings = copy.deepcopy(test_database.settings_dict)
    folder = None
    if test_database.vendor == "sqlite":
        folder = tempfile.mkdtemp(prefix="felt-scratch-")
        settings["NAME"] = str(Path(folder) / "scratch.sqlite3")
    else:
        settings["NAME"] = f"{settings['NAME']}_scratch"
        # Django keeps a PostgreSQL pool per alias: with one, this connection would be
        # handed the test database's connections.
        settings["OPTIONS"].pop("pool", None)
        _run_on(test_database, f'DROP DATABASE IF EXISTS "{settings["NAME"]}"')
        _run_on(test_database, f'CREATE DATABASE "{settings["NAME"]}"')
    scratch = load_backend(settings["ENGINE"]).DatabaseWrapper(settings, DEFAULT_DB_ALIAS)
    connections[DEFAULT_DB_ALIAS] = scratch
    try:
        yield scratch
    finally:
        scratch.close()
        connections[DEFAULT_DB_ALIAS] = test_database
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            _run_on(test_database, f'DROP DATABASE IF EXISTS "{settings["NAME"]}"')


def _run_on(database: BaseDatabaseWrapper, statement: str) -> None:
    with database.cursor() as cursor:
        cursor.execute(statement)


def migrate(database: BaseDatabaseWrapper, targets: Targets) -> Apps:
    """Migrates ``database`` to ``targets`` and gives the models as they were there."""
    executor = MigrationExecutor(database)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps

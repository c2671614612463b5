"""Fixtures for live tables, shared by the table, tournament and account tests that
play: a fast clock and a real Celery worker."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.db import connections

from config.celery import app as celery_app


@pytest.fixture(autouse=True)
def fast_tables(settings: Any) -> None:
    """No pause between hands and no bot thinking time, unless a test asks for one."""
    settings.TABLES_NEXT_HAND_SECONDS = 0.0
    settings.TABLES_SHOWDOWN_SECONDS = 0.0
    settings.TABLES_RUNOUT_STREET_SECONDS = 0.0
    settings.TABLES_BOT_DELAY_SECONDS = (0.0, 0.0)


def _close_worker_connections(**kwargs: Any) -> None:
    # The worker thread's connections would keep PostgreSQL from dropping the test database.
    connections.close_all()


@pytest.fixture
def celery_worker(transactional_db: None) -> Iterator[None]:
    """A real worker thread consuming the configured Redis broker (never eager).

    Tasks queued by earlier tests (which ran without a worker) are purged first.
    """
    import celery.contrib.testing.tasks  # noqa: F401 - the ping task start_worker checks

    assert not celery_app.conf.task_always_eager
    celery_app.control.purge()
    task_postrun.connect(_close_worker_connections, weak=False)
    try:
        with start_worker(celery_app, pool="solo", perform_ping_check=True, shutdown_timeout=10):
            yield
    finally:
        task_postrun.disconnect(_close_worker_connections)

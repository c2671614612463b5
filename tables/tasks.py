"""Timed work of live tables: the wake task queued on commit, and the sweep.

Tasks decide nothing: ``tables.services.table_wake`` checks the ``seq`` and
what is due. The sweep (celery beat, CELERY_BEAT_SCHEDULE) re-applies any
wake-up whose task was lost, so a lost task loses nothing.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from tables import selectors, services

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def wake(table_id: int, seq: int, token: str | None = None) -> str | None:
    """``token`` names this task in the table's wake note (``outbox.schedule``)."""
    return services.table_wake(table_id=table_id, seq=seq, token=token)


@shared_task(ignore_result=True)
def sweep() -> int:
    """Apply everything overdue; returns how many tables it moved on.

    Each table on its own: one that fails is logged and the others are still
    swept (the failed one is tried again on the next sweep).
    """
    done = 0
    for table_id, seq in selectors.tables_due(now=timezone.now()):
        try:
            if services.table_wake(table_id=table_id, seq=seq) is not None:
                done += 1
        except Exception:
            log.exception("sweep: table %s failed to wake (seq %s)", table_id, seq)
    return done

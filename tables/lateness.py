"""How late each table's wake-ups were applied: the measure of a table that stalls.

A wake-up (the next hand, a bot's move, a clock running out) falls due at the
table's ``wake_at``; ``table_wake`` applies it when its task, or the sweep,
comes. How long after the due time that was is kept per table in the cache,
the largest only, so ``manage.py soak`` can say of every table that it never
waited with something due (or by how much it did).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.core.cache import cache

log = logging.getLogger(__name__)

KEEP_SECONDS = 24 * 3600


def _key(table_id: int) -> str:
    return f"tables:late:{table_id}"


def note(table_id: int, seconds: float) -> None:
    """A wake-up of the table was applied ``seconds`` after it fell due.

    Read, then written: a table's wake-ups are applied one after another (each
    names the table's ``seq``), so two never race for one table's figure.
    """
    try:
        if seconds > (cache.get(_key(table_id)) or 0.0):
            cache.set(_key(table_id), seconds, KEEP_SECONDS)
    except Exception:  # measuring must never be what breaks the table
        log.warning("could not note how late table %s woke", table_id)


def largest(table_ids: Iterable[int]) -> dict[int, float]:
    """The latest wake-up applied at each table, in seconds (0.0: none was late)."""
    ids = list(table_ids)
    found = cache.get_many([_key(table_id) for table_id in ids])
    return {table_id: float(found.get(_key(table_id), 0.0)) for table_id in ids}


def forget(table_ids: Iterable[int]) -> None:
    cache.delete_many([_key(table_id) for table_id in table_ids])

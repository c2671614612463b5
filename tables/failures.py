"""Failures at a table that play goes on past, logged and counted so they are seen.

A bot whose strategy raises still acts (it checks or folds), and a wake-up that
cannot do what is due is tried again by the sweep; neither may pass silently.
Each is logged with its table and hand, and counted in the cache; ``/healthz``
shows the counts and the tables whose wake-up is overdue.
"""

from __future__ import annotations

import logging

from django.core.cache import cache

log = logging.getLogger("tables.failures")

KINDS = ("bot_strategy", "wake")


def _key(kind: str) -> str:
    return f"tables:failures:{kind}"


def note_failure(kind: str, *, table_id: int, hand_number: int, error: BaseException) -> None:
    """Log ``error`` (with its traceback) for the table and hand, and count it."""
    log.error(
        "%s failed at table %s, hand %s: %s",
        kind,
        table_id,
        hand_number,
        error,
        exc_info=(type(error), error, error.__traceback__),
    )
    try:
        cache.add(_key(kind), 0, timeout=None)
        cache.incr(_key(kind))
    except Exception:  # counting must never be what breaks the table
        log.warning("could not count a %s failure", kind)


def failure_counts() -> dict[str, int]:
    return {kind: int(cache.get(_key(kind)) or 0) for kind in KINDS}

"""Row locks on PostgreSQL, as the lock-order tests watch them."""

from __future__ import annotations

from django.db import connection


def someone_waits_for_a_lock() -> bool:
    """Whether any connection to the test database is waiting for a lock now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        return bool(cursor.fetchone()[0])

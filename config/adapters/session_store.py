"""Django's database sessions, with the session read as one statement built once.

Every table socket reads its session again every ``SOCKET_SESSION_RECHECK_SECONDS``
(accounts/sessions.py), and the ORM building the ``Session`` query took longer
than the database took to answer it: 3.4% of a live server's processor time under
the load test (docs/performance.md). This store reads the same row, not yet
expired, with SQL written once per database vendor; writing, creating and
deleting sessions are Django's. ``_get_session_from_db`` is underscored in
Django: pinned with it (tests/config/test_adapter_pins.py).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db import connections, router
from django.utils import timezone


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> Any:
        if self.session_key is None:  # no valid key to look for
            return None
        alias = router.db_for_read(Session)
        connection = connections[alias]
        expire_after = connection.ops.adapt_datetimefield_value(timezone.now())
        with connection.cursor() as cursor:
            cursor.execute(_read_statement(connection.vendor), [self.session_key, expire_after])
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        return Session(session_key=self.session_key, session_data=row[0])


@cache
def _read_statement(vendor: str) -> str:
    quote = connections[router.db_for_read(Session)].ops.quote_name
    return (
        f"SELECT {quote('session_data')} FROM {quote(Session._meta.db_table)} "
        f"WHERE {quote('session_key')} = %s AND {quote('expire_date')} > %s"
    )

"""Django's database sessions, with the session read as one statement built once and
its text decoded once.

Every table socket reads its session again every ``SOCKET_SESSION_RECHECK_SECONDS``
(accounts/sessions.py), and the ORM building the ``Session`` query took longer
than the database took to answer it: 3.4% of a live server's processor time under
the load test (docs/performance.md). This store reads the same row, not yet
expired, with SQL written once per database vendor; writing, creating and
deleting sessions are Django's. ``_get_session_from_db`` is underscored in
Django: pinned with it (tests/config/test_adapter_pins.py).

Decoding the row's text (checking its signature, then reading its JSON) cost
more than reading it: a third of that check at 600 tables (docs/performance.md,
session 33), every two seconds per socket, for a text that had not changed. The
signature is the server's own, so the same text under the same keys always says
the same: each process remembers what its last ``DECODED_TEXTS`` texts said,
and gives every caller a fresh copy of it.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db import connections, router
from django.utils import timezone

DECODED_TEXTS = 4096  # sessions' texts a process remembers the contents of


class SessionStore(db.SessionStore):
    def decode(self, session_data: bytes | str) -> dict[str, Any]:
        keys = (settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS)
        decoded: dict[str, Any] = json.loads(_decoded(type(self), keys, session_data))
        return decoded

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


@lru_cache(maxsize=DECODED_TEXTS)
def _decoded(store: type[SessionStore], keys: tuple[str, ...], session_data: bytes | str) -> str:
    """What ``session_data`` says, as JSON text (so each caller gets objects of its own),
    checked and read by Django once per text, store class (its salt) and set of keys."""
    return json.dumps(db.SessionStore.decode(store(), session_data))

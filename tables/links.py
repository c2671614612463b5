"""A friends' table's link, ``/tables/<id>/?key=<invite key>``, and who it let in.

Unlisted, a friends' table opens only to its players and to whoever came with its
key (``selectors.may_reach``). Coming with it is remembered in the browser's
session, the table's id with the key it came with: later visits, the table's
socket (which never sees the URL) and a guest made on the link's join page need
no key. A new key (``table_new_invite_key``) stops the old link from letting
anyone new in; whoever it let in stays. The key rides in the query string, which
the server's access log leaves out.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.urls import reverse

from tables.models import Table

KEY_PARAMETER = "key"
SESSION_KEY = "tables_admitted"  # {table id (str): the key it was opened with}
ADMITTED_KEPT = 200  # the most recent tables a session remembers


def table_link(table: Table) -> str:
    """The path that opens ``table`` to anyone: the one the host shares."""
    path = reverse("tables:table_detail", kwargs={"table_id": table.pk})
    return f"{path}?{KEY_PARAMETER}={table.invite_key}"


def is_right_key(table: Table, key: object) -> bool:
    """``key`` (from a URL: any text, or nothing) is the table's current one."""
    return isinstance(key, str) and secrets.compare_digest(key, table.invite_key)


def admit(session: Any, table: Table) -> None:
    """Remember in ``session`` that it came with ``table``'s current key (no write when
    it already holds it: a host reloading the link's page)."""
    admitted = dict(session.get(SESSION_KEY) or {})
    if admitted.get(str(table.pk)) == table.invite_key:
        return
    admitted.pop(str(table.pk), None)  # re-added last: the most recent are kept
    admitted[str(table.pk)] = table.invite_key
    session[SESSION_KEY] = dict(list(admitted.items())[-ADMITTED_KEPT:])


def admitted_ids(session: Any) -> set[int]:
    """The tables ``session`` came to with a key (a session may be None: no socket's)."""
    admitted = session.get(SESSION_KEY) if session is not None else None
    return {int(table_id) for table_id in admitted or {}}


def knows_current_key(session: Any, table: Table) -> bool:
    """``session`` came with ``table``'s key as it is now (not one the host replaced)."""
    admitted = session.get(SESSION_KEY) if session is not None else None
    return is_right_key(table, (admitted or {}).get(str(table.pk)))

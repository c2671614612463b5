"""Whether a websocket's log-in still stands, and telling open sockets when it may not.

A websocket authenticates once, when it connects. Logging out, changing the
password or being deactivated ends that log-in for HTTP at once, so each of
those tells the member's open sockets (``session_changed``); each socket then
checks its own session (``session_is_current``) and closes if it is no longer
valid. Sockets also re-check now and then on their own, in case a notice was lost.
"""

from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.utils.crypto import constant_time_compare

from accounts.models import User
from config.broadcast import send


def user_group(user_id: int) -> str:
    """Every open socket of one member, on any page."""
    return f"user-{user_id}"


def session_is_current(session: SessionBase | None, user_id: int) -> bool:
    """True while ``session`` (read afresh from the store) still logs in ``user_id``,
    an active member whose password has not changed since."""
    if session is None or session.session_key is None:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore
    data = store(session.session_key).load()  # afresh, not the copy read at connect
    if str(data.get(SESSION_KEY)) != str(user_id) or BACKEND_SESSION_KEY not in data:
        return False
    user = User.objects.filter(pk=user_id, is_active=True).first()
    stored_hash = data.get(HASH_SESSION_KEY)
    return (
        user is not None
        and isinstance(stored_hash, str)
        and constant_time_compare(stored_hash, user.get_session_auth_hash())
    )


def session_changed(user_id: int) -> None:
    """Once committed: ask every open socket of ``user_id`` to check its log-in."""
    message = {"type": "session.changed"}
    transaction.on_commit(lambda: send([(user_group(user_id), message)]))

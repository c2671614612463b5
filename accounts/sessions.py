"""Whether a websocket's log-in still stands, and telling open sockets when it may not.

A websocket authenticates once, when it connects. Logging out, changing the
password or being deactivated ends that log-in for HTTP at once, so each of
those tells the member's open sockets (``session_changed``); each socket then
checks its own session (``session_is_current``) and closes if it is no longer
valid. Sockets also re-check now and then on their own, in case a notice was lost.

The notice takes a moment to arrive, and a command can overtake it. So a
command that changes anything first compares the session auth hash the socket
was opened with against the member's current one (``log_in_stands``), which
the cache keeps (``AUTH_HASH_SECONDS``) and ``session_changed`` replaces
before it tells the sockets: a command sent after the password change was
answered is refused, without a database query for the commands before it.
While the cache (Redis) does not answer, the hash is read from the database
for each command instead: a Redis outage costs a query, not the command. A
command that carries the socket's periodic session check reads the account
from the database for that check, so both are judged from it
(``log_in_current``) and the cache is not read.
"""

from __future__ import annotations

import logging
from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.base import SessionBase
from django.core.cache import cache
from django.db import transaction
from django.utils.crypto import constant_time_compare
from redis.exceptions import RedisError

from accounts.models import User
from config.adapters.compiled_query import CompiledQuery
from config.platform.broadcast import send

log = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    """Every open socket of one member, on any page."""
    return f"user-{user_id}"


# Read by a table socket's session check every few seconds: compiled once.
_active_member = CompiledQuery(lambda user_id: User.objects.filter(pk=user_id, is_active=True))


def active_member(user_id: int) -> User | None:
    found = _active_member.rows(user_id)
    return found[0] if found else None


def session_is_current(session: SessionBase | None, user_id: int) -> bool:
    """True while ``session`` (read afresh from the store) still logs in ``user_id``,
    an active member whose password has not changed since."""
    return _current_hash(session, user_id) is not None


def log_in_current(session: SessionBase | None, user_id: int, auth_hash: str | None) -> bool:
    """``session_is_current`` and ``log_in_stands`` in one, both from the database: the
    session still logs in ``user_id``, and ``auth_hash`` (the socket's, from when it
    opened) is still the member's. A command whose session check is due reads the
    account for it anyway, so it needs no read of the cache besides."""
    if not auth_hash:
        return False
    current = _current_hash(session, user_id)
    return current is not None and constant_time_compare(auth_hash, current)


def _current_hash(session: SessionBase | None, user_id: int) -> str | None:
    """The member's current auth hash while ``session`` (read afresh from the store)
    still logs in ``user_id``, an active member whose password has not changed since;
    else None."""
    if session is None or session.session_key is None:
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore
    data = store(session.session_key).load()  # afresh, not the copy read at connect
    if str(data.get(SESSION_KEY)) != str(user_id) or BACKEND_SESSION_KEY not in data:
        return None
    user = active_member(user_id)
    stored_hash = data.get(HASH_SESSION_KEY)
    if user is None or not isinstance(stored_hash, str):
        return None
    current = user.get_session_auth_hash()
    return current if constant_time_compare(stored_hash, current) else None


AUTH_HASH_SECONDS = 600  # a member's current auth hash, kept in the cache


def _auth_hash_key(user_id: int) -> str:
    return f"session-auth-hash:{user_id}"


def _auth_hash_now(user_id: int) -> str:
    """From the database: the hash a log-in of ``user_id`` must carry ('' for none)."""
    user = active_member(user_id)
    current = "" if user is None else user.get_session_auth_hash()
    try:
        cache.set(_auth_hash_key(user_id), current, AUTH_HASH_SECONDS)
    except RedisError as error:  # kept nowhere: the next command reads it again
        log.warning("the auth hash of member %s is not cached (%s)", user_id, error)
    return current


def _cached_auth_hash(user_id: int) -> str:
    """The cached hash ('' when none is cached, or the cache does not answer)."""
    try:
        return str(cache.get(_auth_hash_key(user_id)) or "")
    except RedisError as error:
        log.warning(
            "the cache does not answer; member %s's log-in is checked in the database (%s)",
            user_id,
            error,
        )
        return ""


def log_in_stands(user_id: int, auth_hash: str | None) -> bool:
    """True while a log-in made with ``auth_hash`` (the session's, when its socket
    opened) still stands for the password and account of ``user_id``.

    A hash the cache agrees with costs no query; any other is checked against
    the database before it is refused (the cache may be older than the account).
    A refill racing ``session_changed`` could keep an old hash for a moment: the
    sockets' full session check every few seconds bounds that.
    """
    if not auth_hash:
        return False
    if constant_time_compare(auth_hash, _cached_auth_hash(user_id)):
        return True
    return constant_time_compare(auth_hash, _auth_hash_now(user_id))


def session_changed(user_id: int) -> None:
    """Once committed: ask every open socket of ``user_id`` to check its log-in, and
    first replace the cached auth hash, so their next command already sees the change."""
    message = {"type": "session.changed"}

    def tell_sockets() -> None:
        _auth_hash_now(user_id)
        send([(user_group(user_id), message)])

    transaction.on_commit(tell_sockets)

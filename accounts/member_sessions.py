"""Where a member is logged in: each log-in's browser, address and last visit, and
ending any of them from the profile.

Felt's sessions are Django's, in the database (config/adapters/session_store.py).
Beside each member's session a ``MemberSession`` row says what the profile shows:
written at log-in (``user_logged_in``), brought up to date by
``MemberSessionMiddleware`` at most every ``LAST_SEEN_EVERY`` (a cache look-up on
the other requests, never a database write per request), and deleted with its
session (a foreign key: log-out, an ended session, a key cycled by a password
change). Ending a session deletes Django's session row, so its next request is a
visitor's, and tells the member's open sockets (``session_changed``): each reads
its own session again and the ended ones close (accounts/sessions.py).
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from redis.exceptions import RedisError

from accounts.devices import device_name
from accounts.guests import is_guest
from accounts.models import MemberSession, User
from accounts.requests import client_address
from accounts.sessions import session_changed
from accounts.tokens import tokens_revoke_all

log = logging.getLogger(__name__)

# How stale a session's "last seen" may get while it is in use: its row is written
# at most this often, whatever the number of requests in between.
LAST_SEEN_EVERY = timedelta(minutes=5)
USER_AGENT_LENGTH = 400  # MemberSession.user_agent's


@dataclass(frozen=True)
class ListedSession:
    """One of the member's log-ins, as the profile lists it."""

    id: int
    device: str
    ip: str | None
    created_at: datetime | None
    last_seen_at: datetime | None
    is_current: bool  # the browser that asks


def _seen_key(session_key: str) -> str:
    return f"member-session-seen:{session_key}"


def _address(request: HttpRequest) -> str | None:
    """The client's address as throttling counts it (accounts/requests.py), or None when
    there is none that is an IP address (a test client, a unix socket)."""
    address = client_address(request)
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None


def session_record(request: HttpRequest, user: User) -> None:
    """Write down this request's session of ``user`` as seen now: its browser, its
    address, the time (and when it began, for a new row). Nothing for a guest, whose
    only session is the one it plays in (docs/accounts.md)."""
    key = request.session.session_key
    if key is None or is_guest(user):
        return
    now = timezone.now()
    seen = {
        "user": user,
        "user_agent": request.headers.get("user-agent", "")[:USER_AGENT_LENGTH],
        "ip": _address(request),
        "last_seen_at": now,
    }
    try:
        with transaction.atomic():
            MemberSession.objects.update_or_create(
                session_id=key, defaults=seen, create_defaults={**seen, "created_at": now}
            )
    except IntegrityError:  # the session was ended (or made) a moment ago by another request
        return
    try:
        cache.set(_seen_key(key), now.timestamp(), int(LAST_SEEN_EVERY.total_seconds()) * 2)
    except RedisError as error:
        log.warning("a session's visit is not cached (%s)", error)


def _is_due(key: str) -> bool:
    """True when the session's row was last written ``LAST_SEEN_EVERY`` ago or more
    (or never); False while the cache does not answer: a Redis outage costs the
    member's "last seen" a few minutes, not a database write per request."""
    try:
        seen = cache.get(_seen_key(key))
    except RedisError as error:
        log.warning("the cache does not answer; a session's visit is not written (%s)", error)
        return False
    if seen is None:
        return True
    return timezone.now().timestamp() - float(seen) >= LAST_SEEN_EVERY.total_seconds()


class MemberSessionMiddleware:
    """Keeps each member's session row up to date, before the view: the profile then
    lists the browser that asks even on its first page after its key changed."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = _session_member(request)
        if user is not None and _is_due(str(request.session.session_key)):
            session_record(request, user)
        return self.get_response(request)


def _session_member(request: HttpRequest) -> User | None:
    """The member this request's session logs in; None for a visitor, and for a request
    with no session cookie (the API's tokens), whose session is not even read."""
    session = getattr(request, "session", None)
    if session is None or session.session_key is None:
        return None
    user = request.user
    if isinstance(user, User) and str(session.get(SESSION_KEY)) == str(user.pk):
        return user
    return None


def _store_decode(session_data: str) -> dict[str, Any]:
    store = import_module(settings.SESSION_ENGINE).SessionStore
    decoded: dict[str, Any] = store().decode(session_data)
    return decoded


def member_sessions(*, user: User, current_key: str | None) -> list[ListedSession]:
    """The member's log-ins that still stand, this browser's first, then the latest
    seen: their session has not expired and carries the member's current password
    hash (a password change ends the others even before their rows go)."""
    rows = MemberSession.objects.filter(
        user=user, session__expire_date__gt=timezone.now()
    ).select_related("session")
    auth_hash = user.get_session_auth_hash()
    listed = []
    for row in rows:
        data = _store_decode(row.session.session_data)
        stored_hash = data.get(HASH_SESSION_KEY)
        if str(data.get(SESSION_KEY)) != str(user.pk) or not isinstance(stored_hash, str):
            continue
        if not constant_time_compare(stored_hash, auth_hash):
            continue
        listed.append(
            ListedSession(
                id=row.pk,
                device=device_name(row.user_agent),
                ip=row.ip,
                created_at=row.created_at,
                last_seen_at=row.last_seen_at,
                is_current=row.session_id == current_key,
            )
        )
    listed.sort(key=lambda session: not session.is_current)  # stable: the rest keep their order
    return listed


def _sessions_end(user: User, keys: list[str]) -> int:
    """Delete these sessions of ``user`` (their rows go with them), then, once
    committed, tell the member's open sockets to check their own session."""
    if not keys:
        return 0
    with transaction.atomic():
        Session.objects.filter(session_key__in=keys).delete()
        session_changed(user.pk)  # on commit: the sockets of the ended sessions close
    return len(keys)


def session_end(*, user: User, session_id: int, current_key: str | None) -> bool:
    """End one of ``user``'s other sessions; False when ``session_id`` names none of
    theirs (another member's, or this browser's own: that one logs out instead)."""
    keys = list(
        MemberSession.objects.filter(user=user, pk=session_id)
        .exclude(session_id=current_key or "")
        .values_list("session_id", flat=True)
    )
    return _sessions_end(user, keys) > 0


def sessions_end_others(*, user: User, current_key: str | None) -> int:
    """End every session of ``user`` but ``current_key`` (all of them for None: a
    password reset made while logged out); how many were ended."""
    keys = list(
        MemberSession.objects.filter(user=user)
        .exclude(session_id=current_key or "")
        .values_list("session_id", flat=True)
    )
    return _sessions_end(user, keys)


def on_log_in(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """``user_logged_in``'s receiver (accounts/apps.py): the new session's first row."""
    if request is not None and isinstance(user, User):
        session_record(request, user)


def password_replaced(request: HttpRequest, user: User, *, revoke_tokens: bool) -> str:
    """After a password change or reset: every other session of ``user`` ends (their
    rows go, their sockets are told), and the API tokens too if the member chose so.
    Says what happened to the tokens, for the page's message ("" when kept)."""
    # Django already refuses the other sessions (their auth hash no longer matches);
    # the sessions not in the list (from before it was kept) hear it here too.
    sessions_end_others(user=user, current_key=request.session.session_key)
    session_changed(user.pk)
    if not revoke_tokens:
        return ""
    revoked = tokens_revoke_all(user=user)
    return f" {revoked} API token{'s' if revoked != 1 else ''} revoked."

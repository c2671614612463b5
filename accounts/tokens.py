"""Personal API tokens: created with a key shown once, stored hashed, revoked by their owner.

A key reads ``felt_`` followed by 43 URL-safe characters (32 random bytes).
Clients send it as ``Authorization: Bearer <key>`` (accounts/authentication.py).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.guests import GUESTS_REFUSED, is_guest
from accounts.models import ApiToken

KEY_PREFIX = "felt_"
MAX_TOKENS = 10  # per member
# How often a token's use is written down: once a minute at most, on the request that
# finds it older (token_user), so nearly every API call costs no write at all.
LAST_USED_EVERY = timedelta(minutes=1)


class TokenRefused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def token_create(*, user: Any, name: str) -> tuple[ApiToken, str]:
    """A new token and its key (the only time the key exists outside the client)."""
    if is_guest(user):  # the API is for full accounts (accounts/guest_limits.py)
        raise TokenRefused(GUESTS_REFUSED)
    name = name.strip()
    if not name:
        raise TokenRefused("Give the token a name, so you know later what uses it.")
    with transaction.atomic():
        count = ApiToken.objects.select_for_update().filter(user=user).count()
        if count >= MAX_TOKENS:
            raise TokenRefused(f"You have {MAX_TOKENS} tokens already: revoke one first.")
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        token = ApiToken.objects.create(
            user=user, name=name[:60], prefix=key[: len(KEY_PREFIX) + 4], key_hash=hash_key(key)
        )
    return token, key


def token_revoke(*, user: Any, token_id: int) -> bool:
    """Delete one of ``user``'s tokens; False when there is no such token of theirs."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def tokens_revoke_all(*, user: Any) -> int:
    """Delete every token of ``user`` (on a password change the member asked it of, or
    a password reset); how many there were. Programs using them get 401 from now on."""
    deleted, _ = ApiToken.objects.filter(user=user).delete()
    return deleted


def token_user(key: str) -> Any | None:
    """The active member a key belongs to, noting when it was last used; None if unknown
    (or a guest's, which only the admin could have made: the API is for full accounts)."""
    if not key.startswith(KEY_PREFIX):
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(key_hash=hash_key(key), user__is_active=True, user__is_guest=False)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
        # Read with the token above, so the other calls of the minute ask nothing more;
        # the condition again here, so that calls racing each other write it once.
        stale = Q(last_used_at__isnull=True) | Q(last_used_at__lte=now - LAST_USED_EVERY)
        ApiToken.objects.filter(stale, pk=token.pk).update(last_used_at=now)
    return token.user

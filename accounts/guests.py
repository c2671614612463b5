"""Guests: a friend who opens a table's link plays with a nickname only.

A guest is a ``User`` with ``is_guest`` set, no email and an unusable
password, so nobody can log in as it: it exists only in the session of the
browser that made it (``GUEST_SESSION_SECONDS``, renewed on the first request
of each day). Guests play at friends' tables and nowhere else
(``accounts/guest_limits.py`` refuses the rest), and hold no points. A guest
may turn the account into a full one (``guest_upgrade``): same id, so the
hands it played stay its own, and the welcome grant then, once.
docs/accounts.md tells the whole story.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone

from accounts.members import taken_since_checked
from accounts.models import NAME_TAKEN, User
from accounts.names import check_name_free
from accounts.points import points_account_open

# How long a guest's log-in lasts in its browser since the day it was last used: the
# session is its only key, so it is kept far longer than a member's (who can log in
# again). Logging out or clearing the browser's cookies loses the account for good.
GUEST_SESSION_SECONDS = 365 * 24 * 3600
SESSION_DAY_KEY = "guest_day"  # the last day the guest's session was renewed

GUESTS_REFUSED = (
    "Guest accounts play at friends' tables only. "
    "Save yours as a full account (a username and password) to use the rest of Felt."
)


class NotAGuest(Exception):
    """The account is a full one already (upgraded a moment ago, say): nothing changed."""

    message = "This account is a full account already."


def is_guest(user: Any) -> bool:
    """True for a signed-in guest; False for members and for visitors not signed in."""
    return bool(getattr(user, "is_guest", False))


def _free_username() -> str:
    """A username nobody has or goes by, nor one that looks the same; guests never
    type it (they cannot log in)."""
    while True:
        username = f"guest-{secrets.token_hex(4)}"
        try:
            check_name_free(username, None)
        except ValidationError:
            continue
        return username


def guest_create(*, nickname: str) -> User:
    """A new guest called ``nickname`` (checked by ``GuestForm``); ``ValidationError``
    when another member took the name in the meantime."""
    user = User(username=_free_username(), display_name=nickname, is_guest=True)
    user.set_unusable_password()
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:  # the display name's unique constraint: taken since the check
        raise ValidationError(NAME_TAKEN, code="name_taken") from None
    return user


def keep_signed_in(request: HttpRequest) -> None:
    """Extend a guest's log-in in this browser to a year from today (at most one session
    write a day): the session is the only way back into a guest account."""
    today = timezone.now().date().isoformat()
    if request.session.get(SESSION_DAY_KEY) != today:
        request.session[SESSION_DAY_KEY] = today
        request.session.set_expiry(GUEST_SESSION_SECONDS)


def guest_upgrade(*, user: User, username: str, email: str, password: str) -> User:
    """Make the guest ``user`` a full member (fields checked by ``UpgradeForm``): a
    username, an email and a password, the same id and nickname, and the welcome grant.

    ``NotAGuest`` if it is a full account already. The grant comes with the site points
    account, which exists at most once per member (a unique constraint), so a second
    upgrade racing this one can never grant it twice.
    """
    with transaction.atomic():
        member = User.objects.select_for_update().get(pk=user.pk)
        if not member.is_guest:
            raise NotAGuest()
        member.username, member.email, member.is_guest = username, email, False
        member.set_password(password)
        try:
            with transaction.atomic():
                member.save(update_fields=["username", "email", "password", "is_guest"])
        except IntegrityError as error:  # the username or address, taken since the check
            raise taken_since_checked(error) from None
        points_account_open(user=member)  # the welcome grant, now that it is a member
    return member

"""A member closes their own account (the profile's "Close my account").

Closing is the admin's deletion, asked for by the member: everything they hold in
play is let go first, by the same handlers (``accounts.release``), then the account
goes with its points accounts, API tokens, club memberships and data zips, while
every ledger row stays with no member (``on_delete=SET_NULL``), so each ledger
still adds up. What others keep seeing of the member (their name in hand histories
and tournament results) becomes an anonymous label, by the apps that keep those
names (``register``), in the same transaction.

Every log-in of the account ends with it: the sessions the member's list knows
(accounts/member_sessions.py) are deleted, any other whose user no longer exists is
anonymous to Django on its next request, and the member's open sockets are told to
check theirs (``session_changed``), and close.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.db import transaction

from accounts import data_export
from accounts.member_sessions import sessions_end_others
from accounts.models import User
from accounts.release import account_release
from accounts.sessions import session_changed

# ``forget(user, label)``: an app replaces the names it keeps of ``user`` with ``label``.
Forget = Callable[[User, str], object]
_forgetters: list[Forget] = []

CLOSED_LABEL = "Closed account"


def register(forget: Forget) -> None:
    if forget not in _forgetters:
        _forgetters.append(forget)


def closed_label() -> str:
    """What others see instead of a closed account's name: "Closed account #482913".

    The number is drawn at random, not the account's id, so nothing ties the label to
    the member; it stays the same across their hands, so a hand history still reads
    as the same player throughout, and two closed accounts at one table differ.
    """
    return f"{CLOSED_LABEL} #{100_000 + secrets.randbelow(900_000)}"


def account_close(*, user: User) -> str:
    """Closes ``user``'s account for good; returns the label others now see."""
    user_id, label = user.pk, closed_label()
    with transaction.atomic():
        account_release(user=user)
        for forget in _forgetters:
            forget(user, label)
        data_export.exports_discard(user=user)
        sessions_end_others(user=user, current_key=None)
        user.delete()
        session_changed(user_id)  # on commit: their open sockets check their log-in
    return label

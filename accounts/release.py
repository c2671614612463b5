"""What a member leaves behind when their account is closed, done by the apps above.

Before a member is deleted or deactivated, every app that holds something of
theirs in play lets go of it: tables free their seats and hand on the tables
they host, tournaments not yet started refund their registrations, and the
clubs they own pass to another member. Those apps sit above accounts, so they
register their handlers here when they are ready (``TablesConfig.ready``,
``TournamentsConfig.ready``), in that order.
"""

from __future__ import annotations

from collections.abc import Callable

from accounts.models import User

Release = Callable[[User], object]
_handlers: list[Release] = []


def register(handler: Release) -> None:
    if handler not in _handlers:
        _handlers.append(handler)


def account_release(*, user: User) -> None:
    """Everything ``user`` holds in play is let go, each by its own app."""
    for handler in _handlers:
        handler(user)

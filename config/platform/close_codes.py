"""The codes Felt's websockets close with, each defined once (docs/protocol.md).

The consumers and the socket guards close with these; the pages' scripts read
them by name from the JSON that ``templates/base.html`` writes into every page
(``for_pages`` below), so no number is written twice.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


class CloseCode:
    """Plain ints rather than an ``IntEnum``: Daphne (autobahn) refuses to close a
    socket with a code whose type is not exactly ``int``."""

    UNAUTHENTICATED = 4401  # not signed in
    SESSION_ENDED = 4403  # signed out, password changed or account deactivated since
    NOT_FOUND = 4404  # no such table
    MEMBERS_ONLY = 4406  # a club's table, and the member is not (or no longer) in it
    RATE_LIMITED = 4429  # kept flooding after being told to slow down (frames or commands)
    TOO_MANY_SOCKETS = 4430  # refused at the handshake: too many, or cooling off
    UNAVAILABLE = 4503  # Redis or the database did not answer while the socket opened


def by_name() -> dict[str, int]:
    return {name: code for name, code in vars(CloseCode).items() if name.isupper()}


def for_pages(request: HttpRequest) -> dict[str, Any]:
    """Template context (a context processor): the codes by name, for the pages' scripts."""
    return {"close_codes": by_name()}

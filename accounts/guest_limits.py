"""Where a guest may go: friends' tables and what comes with them, nothing else.

The pages are listed by what a guest may reach (``GUEST_PAGES``), not by what it
may not, so a page added later stays closed to guests until someone decides
otherwise. Everything else answers 403 with the reason and the way to a full
account: an HTML page, or JSON under /api/. Which tables a guest may watch or
sit at is the table kind's answer (``tables.kinds``), and the services that a
guest must not reach refuse it themselves too (tournaments and clubs, opening
a table, points, API tokens), so no second door is left open.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from accounts.guests import GUESTS_REFUSED, is_guest, keep_signed_in

GUEST_PAGES = frozenset(
    {
        "lobby",
        "favicon",
        "healthz",
        # The table itself (a friends' one: tables.kinds refuses the others), its
        # ledger, and the hands the guest played there.
        "tables:table_detail",
        "tables:table_join_guest",
        "tables:table_ledger_csv",
        "tables:table_new_link",  # a guest may be handed the host role
        "tables:hand_history_list",
        "tables:hand_replayer",
        "tables:player_page",
        # The profile: a nickname to change, the account to save, the way out; the
        # guest's data to take, and the account to close (docs/accounts.md).
        "accounts:profile",
        "accounts:upgrade",
        "accounts:data_request",
        "accounts:data_status",
        "accounts:data_download",
        "accounts:close",
        "accounts:logout",
        "accounts:login",
        "accounts:login_code",
        "accounts:signup",
    }
)


class GuestLimitsMiddleware:
    """Refuses a signed-in guest every page outside ``GUEST_PAGES``, and keeps its
    log-in alive in its browser (``accounts.guests.keep_signed_in``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # After the view: logging in or out there changes who this is.
        if is_guest(request.user) and hasattr(request, "session"):
            keep_signed_in(request)
        return response

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        match = request.resolver_match
        if not is_guest(request.user) or match is None or match.view_name in GUEST_PAGES:
            return None
        return guest_refused(request)


def guest_refused(request: HttpRequest) -> HttpResponse:
    """403: what a guest may not do, and how to save the account to do it."""
    if request.path.startswith("/api/"):
        body = {"code": "guest", "message": GUESTS_REFUSED, "detail": GUESTS_REFUSED}
        return JsonResponse(body, status=403)
    return render(request, "accounts/guest_refused.html", {"message": GUESTS_REFUSED}, status=403)

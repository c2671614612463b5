"""The admin site, only for staff who passed a second factor at log-in.

With ``ADMIN_REQUIRES_SECOND_FACTOR`` on (the default unless DEBUG), a staff
member who opens any admin page without having set up a second factor is sent
to set one up from the profile; one who has it but logged in without the code
(before setting it up, say, in a session that has gone on since) gets a page
saying to log in again. django-otp's middleware, before this one, says which
factor this session passed (``request.user.is_verified()``). Members who are not
staff are the admin's own business (its log-in page, which is the site's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from accounts.second_factor import has_second_factor

SET_ONE_UP = "The admin site needs a second factor: set up an authenticator app here first."


class AdminSecondFactorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        match = request.resolver_match
        if not settings.ADMIN_REQUIRES_SECOND_FACTOR or match is None:
            return None
        if match.namespace != "admin" or match.url_name == "logout":
            return None
        user: Any = request.user
        if not (user.is_active and user.is_staff) or user.is_verified():
            return None
        if not has_second_factor(user):
            messages.warning(request, SET_ONE_UP)
            return redirect(reverse("accounts:profile") + "#second-factor")
        return render(request, "accounts/admin_refused.html", status=403)

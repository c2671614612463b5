"""Between the password and the code: the session holds who is logging in, not yet
logged in (accounts/second_factor_views.py asks for the code)."""

from __future__ import annotations

import time
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.crypto import constant_time_compare

from accounts.models import User

# How long the code may come after the password.
SECOND_STEP_SECONDS = 300
SECOND_STEP_KEY = "second_step"


def second_step_begin(request: HttpRequest, user: User, next_url: str) -> HttpResponse:
    """The password was right and ``user`` has a second factor: ask for a code."""
    request.session[SECOND_STEP_KEY] = {
        "user": user.pk,
        "backend": getattr(user, "backend", "django.contrib.auth.backends.ModelBackend"),
        "hash": user.get_session_auth_hash(),
        "until": time.time() + SECOND_STEP_SECONDS,
        "next": next_url,
    }
    return redirect("accounts:login_code")


def second_step_pending(request: HttpRequest) -> tuple[User, dict[str, Any]] | None:
    """Who passed the password step in this session, if it is recent and their password
    has not changed since."""
    step = request.session.get(SECOND_STEP_KEY)
    if not isinstance(step, dict) or step.get("until", 0) < time.time():
        return None
    user = User.objects.filter(pk=int(step["user"]), is_active=True).first()
    if user is None or not constant_time_compare(step["hash"], user.get_session_auth_hash()):
        return None
    return user, step

"""Profile page actions on the member's sessions: end one, or all but this browser's."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from accounts import member_sessions
from accounts.requests import signed_in_user


@login_required
@require_POST
def session_end(request: HttpRequest, session_id: int) -> HttpResponse:
    """Another member's session, or one that has ended, answers 404 as one that never
    was; this browser's own is not offered (it logs out instead)."""
    user = signed_in_user(request)
    current_key = request.session.session_key
    if not member_sessions.session_end(user=user, session_id=session_id, current_key=current_key):
        raise Http404("There is no such session of yours.")
    messages.success(request, "That session was ended: that browser is logged out.")
    return redirect("accounts:profile")


@login_required
@require_POST
def sessions_end_others(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    ended = member_sessions.sessions_end_others(user=user, current_key=request.session.session_key)
    if ended:
        plural = "s" if ended > 1 else ""
        messages.success(request, f"You were logged out of {ended} other session{plural}.")
    else:
        messages.info(request, "You were logged in nowhere else.")
    return redirect("accounts:profile")

"""Profile page actions for personal API tokens: create (key shown once) and revoke."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from accounts.forms import ProfileForm
from accounts.requests import signed_in_user
from accounts.tokens import TokenRefused, token_create, token_revoke


@login_required
@require_POST
def api_token_create(request: HttpRequest) -> HttpResponse:
    """Answers with the profile page itself, showing the new key this once (never stored)."""
    from accounts.views import render_profile

    try:
        token, key = token_create(user=request.user, name=request.POST.get("name", ""))
    except TokenRefused as error:
        messages.error(request, error.message)
        return redirect("accounts:profile")
    form = ProfileForm(instance=signed_in_user(request))
    return render_profile(request, form, new_token=token, new_key=key)


@login_required
@require_POST
def api_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    if not token_revoke(user=request.user, token_id=token_id):
        raise Http404("There is no such token of yours.")  # as for one that never was
    messages.success(request, "The token was revoked: it no longer works.")
    return redirect("accounts:profile")

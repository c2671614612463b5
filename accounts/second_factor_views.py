"""Pages of the second factor: the code asked after the password, setting up an
authenticator app from the profile (with its recovery codes, shown once), removing
it, and the admin's log-in, which is the site's. accounts/second_factor.py holds
the devices; docs/accounts.md, "A second factor for staff", the story."""

from __future__ import annotations

from typing import Any

import django_otp
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods, require_POST
from django_otp.plugins.otp_static.models import StaticDevice

from accounts import throttling
from accounts.forms import CodeForm, RemoveSecondFactorForm
from accounts.requests import client_address, signed_in_user
from accounts.second_factor import (
    CodeRefused,
    app_setup,
    code_verify,
    has_second_factor,
    pending_app,
    recovery_codes_left,
    second_factor_remove,
    totp_device_confirm,
    totp_device_start,
)
from accounts.second_step import SECOND_STEP_KEY, second_step_pending


def throttled_code(request: HttpRequest, user: Any, form: CodeForm) -> Any:
    """The device ``form``'s code opens for ``user``, or None with the reason on the
    form: refused while the code step is blocked (accounts/throttling.py, its own
    counters), and each wrong code counted towards a block."""
    ip = client_address(request)
    blocked = throttling.seconds_blocked(user.username, ip, throttling.CODE)
    if blocked:
        form.add_error(None, throttling.blocked_message(blocked))
        return None
    try:
        device = code_verify(user=user, code=form.cleaned_data["code"])
    except CodeRefused as refusal:
        throttling.record_failure(user.username, ip, throttling.CODE)
        blocked = throttling.seconds_blocked(user.username, ip, throttling.CODE)
        form.add_error("code", throttling.blocked_message(blocked) if blocked else refusal.message)
        return None
    throttling.record_success(user.username, ip, throttling.CODE)
    return device


@require_http_methods(["GET", "POST"])
def login_code(request: HttpRequest) -> HttpResponse:
    """The second step of a log-in: a code from the app, or a recovery code. Throttled
    like the password (accounts/throttling.py, its own counters)."""
    pending = second_step_pending(request)
    if pending is None:
        request.session.pop(SECOND_STEP_KEY, None)
        messages.info(request, "Log in with your password first; the code comes after it.")
        return redirect("accounts:login")
    user, step = pending
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        device = throttled_code(request, user, form)
        if device is not None:
            request.session.pop(SECOND_STEP_KEY, None)
            login(request, user, backend=step["backend"])
            django_otp.login(request, device)  # this session passed the second factor
            if isinstance(device, StaticDevice):
                left = recovery_codes_left(user)
                messages.warning(
                    request,
                    f"You used a recovery code: {left} left. Each works once; for new "
                    "ones, remove the second factor on your profile and set it up again.",
                )
            return redirect(step["next"] or reverse("lobby"))
    return render(request, "accounts/login_code.html", {"form": form, "member": user})


def admin_login(request: HttpRequest) -> HttpResponse:
    """The admin's log-in page is the site's, so staff pass the same two steps. A member
    logged in already comes here only when the admin refused them: they are told so
    (the site's log-in page would send them straight back, round and round)."""
    if request.user.is_authenticated:
        return render(request, "accounts/admin_refused.html", {"not_staff": True}, status=403)
    wanted = request.GET.get("next") or reverse("admin:index")
    return redirect(f"{reverse('accounts:login')}?{urlencode({'next': wanted})}")


@login_required
@require_POST
def second_factor_start(request: HttpRequest) -> HttpResponse:
    """A new secret; not while one is set up: replacing it would skip what removing it
    asks for (the password and a code)."""
    user = signed_in_user(request)
    if has_second_factor(user):
        messages.info(request, "You have a second factor already: remove it first to replace it.")
        return redirect("accounts:profile")
    totp_device_start(user=user)
    return redirect("accounts:second_factor_setup")


@login_required
@require_http_methods(["GET", "POST"])
def second_factor_setup(request: HttpRequest) -> HttpResponse:
    """The secret for the app (QR code, text, link) and the code that confirms it; once
    confirmed, the recovery codes, shown in this answer and never again."""
    user = signed_in_user(request)
    device = pending_app(user)
    if device is None:
        return redirect("accounts:profile")
    form = CodeForm(request.POST or None)
    form.fields["code"].help_text = "The 6-digit code your app shows for Felt now."
    if request.method == "POST" and form.is_valid():
        try:
            confirmed, codes = totp_device_confirm(user=user, code=form.cleaned_data["code"])
        except CodeRefused as refusal:
            form.add_error("code", refusal.message)
        else:
            django_otp.login(request, confirmed)  # this session has passed it now
            context = {"codes": "\n".join(codes), "count": len(codes)}
            return render(request, "accounts/second_factor_codes.html", context)
    context = {"form": form, "setup": app_setup(device)}
    return render(request, "accounts/second_factor_setup.html", context)


@login_required
@require_POST
def second_factor_remove_view(request: HttpRequest) -> HttpResponse:
    """Removing the second factor takes the password and a code (or a recovery code)."""
    from accounts.views import render_profile

    user = signed_in_user(request)
    form = RemoveSecondFactorForm(user, request.POST)
    if form.is_valid() and throttled_code(request, user, form) is not None:
        second_factor_remove(user=user)
        messages.success(request, "Your second factor was removed.")
        return redirect("accounts:profile")
    return render_profile(request, None, remove_form=form)

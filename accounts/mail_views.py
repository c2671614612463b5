"""The pages a link in Felt's mail leads to, and those that send one: forgotten
passwords (Django's reset views, made Felt's) and confirming an address
(accounts/addresses.py). docs/accounts.md tells the story."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.views.decorators.http import require_http_methods

from accounts import throttling
from accounts.addresses import LinkRefused, confirmation_link_send, confirmation_sent_message
from accounts.addresses import email_confirm as confirm_address
from accounts.forms import ForgotPasswordForm, SetPasswordWithTokensForm
from accounts.member_sessions import password_replaced
from accounts.models import User
from accounts.requests import client_address, signed_in_user
from accounts.second_factor import has_second_factor
from accounts.second_step import second_step_begin


def reset_link_lifetime() -> str:
    """How long a reset link works (PASSWORD_RESET_TIMEOUT), for a person: "1 hour"."""
    minutes = max(1, settings.PASSWORD_RESET_TIMEOUT // 60)
    amount, unit = (minutes // 60, "hour") if minutes % 60 == 0 else (minutes, "minute")
    return f"{amount} {unit}{'s' if amount != 1 else ''}"


class ForgotPasswordView(auth_views.PasswordResetView):
    """Asks for an address and answers the same whether or not an account uses it."""

    form_class = ForgotPasswordForm
    template_name = "accounts/password_reset.html"
    success_url = reverse_lazy("accounts:password_reset_done")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "hours": reset_link_lifetime()}

    def form_valid(self, form: Any) -> HttpResponse:
        email = form.cleaned_data["email"]
        seconds = throttling.mail_link_seconds_refused(email, client_address(self.request))
        if seconds:
            form.add_error(None, throttling.mail_link_refused_message(seconds))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        self.extra_email_context = {"hours": reset_link_lifetime()}
        return super().form_valid(form)


class ForgotPasswordSentView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_sent.html"


class SetNewPasswordView(auth_views.PasswordResetConfirmView):
    """The link from the mail: a new password, and the member logged in with it. The
    token is Django's: it stops working once the password changes (used) or after
    PASSWORD_RESET_TIMEOUT (expired)."""

    template_name = "accounts/password_reset_confirm.html"
    form_class = SetPasswordWithTokensForm
    post_reset_login = True
    post_reset_login_backend = "django.contrib.auth.backends.ModelBackend"
    success_url = reverse_lazy("lobby")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "hours": reset_link_lifetime()}

    def get_user(self, uidb64: str) -> Any:
        user = super().get_user(uidb64)
        # Deactivated since the mail was sent, or a guest: the link opens nothing.
        if not isinstance(user, User) or not user.is_active or user.is_guest:
            return None
        return user

    def form_valid(self, form: Any) -> HttpResponse:
        user = form.user
        # The mail proves the address, not the phone: a member with a second factor
        # gives a code before the new password logs them in (docs/accounts.md).
        self.post_reset_login = not has_second_factor(user)
        response = super().form_valid(form)  # logged in here unless a code is asked
        if not self.post_reset_login:
            response = second_step_begin(self.request, user, str(self.success_url))
        tokens = password_replaced(
            self.request, user, revoke_tokens=bool(form.cleaned_data.get("revoke_tokens"))
        )
        message = (
            "Your password was changed and you are logged in. "
            if self.post_reset_login
            else "Your password was changed: give a code from your app to log in. "
        ) + "Everywhere else you were logged in, you are logged out."
        messages.success(self.request, message + tokens)
        return response


@require_http_methods(["GET"])
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link from a confirmation mail; it works without logging in (having the
    mail is the proof), once."""
    try:
        user = confirm_address(token)
    except LinkRefused as refused:
        context = {"refused": refused.message}
        return render(request, "accounts/email_confirm.html", context, status=400)
    return render(request, "accounts/email_confirm.html", {"confirmed": user.email})


@login_required
@require_http_methods(["POST"])
def email_confirm_send(request: HttpRequest) -> HttpResponse:
    """The profile's "Send the link again", throttled like a password reset."""
    user = signed_in_user(request)
    if user.is_guest or not user.email or user.email_is_confirmed:
        messages.info(request, "There is no address to confirm.")
        return redirect("accounts:profile")
    confirmation_link_offer(request, user)
    return redirect("accounts:profile")


def confirmation_link_offer(request: HttpRequest, user: User) -> None:
    """Mail ``user``'s unconfirmed address its link, throttled like a password reset
    (per address and per client address), and say so on the next page: "Send the link
    again", and a changed address (accounts/views.py), so changing the address over and
    over mails nobody more often than asking again does."""
    seconds = throttling.mail_link_seconds_refused(user.email, client_address(request))
    if seconds:
        messages.error(request, throttling.mail_link_refused_message(seconds))
    elif confirmation_link_send(user=user, request=request):
        messages.success(request, confirmation_sent_message(user))

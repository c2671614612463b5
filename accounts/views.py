from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from accounts import throttling
from accounts.addresses import confirmation_link_send, confirmation_sent_message
from accounts.forms import (
    LoginForm,
    PasswordChangeWithTokensForm,
    ProfileForm,
    RemoveSecondFactorForm,
    SignUpForm,
    UpgradeForm,
)
from accounts.guests import SESSION_DAY_KEY, NotAGuest, guest_upgrade
from accounts.mail_views import confirmation_link_offer
from accounts.member_sessions import member_sessions, password_replaced
from accounts.members import member_sign_up, taken_since_checked
from accounts.models import EMAIL_CLEARED, STARTING_POINTS
from accounts.requests import client_address, signed_in_user
from accounts.second_factor import has_second_factor, recovery_codes_left
from accounts.second_step import second_step_begin
from accounts.sessions import session_changed


def next_page(request: HttpRequest) -> str:
    """Where to go once signed in: the page that sent the visitor here (a table's
    link, say), if it is on this site; else the lobby."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    is_ours = url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return wanted if wanted and is_ours else str(reverse_lazy("lobby"))


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(next_page(request))
    form = SignUpForm(request.POST or None)
    status = 200
    if request.method == "POST" and (form.is_valid() or is_email_taken(form)):
        # An address refused as taken counts as a sign-up: it says the address has
        # an account, and asking that of many addresses is throttled like sign-ups.
        seconds = throttling.signup_seconds_refused(client_address(request))
        if seconds:
            form.add_error(None, throttling.signup_refused_message(seconds))
            status = 429
        elif form.is_valid():
            try:
                user = member_sign_up(form)
            except ValidationError as error:  # taken by a sign-up a moment ago
                form.add_error(None, error)
            else:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                messages.success(request, f"Welcome to Felt, {user.username}.")
                if confirmation_link_send(user=user, request=request):
                    messages.info(request, confirmation_sent_message(user))
                return redirect(next_page(request))
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    context = {"form": form, "next": wanted}
    return render(request, "accounts/signup.html", context, status=status)


def is_email_taken(form: forms.BaseForm) -> bool:
    return form.has_error("email", "email_taken")


class LoginView(auth_views.LoginView):
    form_class = LoginForm
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def form_valid(self, form: Any) -> HttpResponse:
        """A member with a second factor is not logged in yet: the code comes next."""
        user = form.get_user()
        if has_second_factor(user):
            return second_step_begin(self.request, user, self.get_success_url())
        response = super().form_valid(form)
        if user.must_replace_email:
            messages.warning(self.request, EMAIL_CLEARED)
        return response


class LogoutView(auth_views.LogoutView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user_id = request.user.pk
        response = super().post(request, *args, **kwargs)
        if user_id is not None:
            session_changed(user_id)  # this session's open sockets close
        return response


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    form = ProfileForm(request.POST or None, instance=user)
    if request.method == "POST" and not form.is_valid() and is_email_taken(form):
        seconds = throttling.signup_seconds_refused(client_address(request))
        if seconds:
            form.add_error(None, throttling.signup_refused_message(seconds))
            return render_profile(request, form, status=429)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                form.save()
        except IntegrityError as error:  # a name or address taken since the check
            user.refresh_from_db()
            form.add_error(None, taken_since_checked(error))
        else:
            messages.success(request, "Your profile was saved.")
            if "email" in form.changed_data:  # a new address is unconfirmed: its link
                confirmation_link_offer(request, user)
            return redirect("accounts:profile")
    return render_profile(request, form)


def render_profile(request: HttpRequest, form: ProfileForm | None, **extra: Any) -> HttpResponse:
    """The profile page, with the member's sessions, API tokens (names and prefixes,
    never keys) and second factor; a guest's, with the form that saves the account
    instead."""
    user = signed_in_user(request)
    if form is None:
        form = ProfileForm(instance=user)
    if user.is_guest:
        extra.setdefault("upgrade_form", UpgradeForm(instance=user))
    else:
        current_key = request.session.session_key
        sessions = member_sessions(user=user, current_key=current_key)
        extra["sessions"] = sessions
        extra["has_other_sessions"] = any(not session.is_current for session in sessions)
        extra["email_cleared"] = EMAIL_CLEARED if user.must_replace_email else ""
        extra["has_second_factor"] = has_second_factor(user)
        extra["recovery_codes_left"] = recovery_codes_left(user)
        extra.setdefault("remove_form", RemoveSecondFactorForm(user))
    tokens = user.api_tokens.all()
    data_export = user.data_exports.first()  # the latest (accounts/data_export.py)
    status = extra.pop("status", 200)
    context = {"form": form, "tokens": tokens, "data_export": data_export, **extra}
    return render(request, "accounts/profile.html", context, status=status)


@login_required
@require_http_methods(["POST"])
def upgrade(request: HttpRequest) -> HttpResponse:
    """A guest saves the account: a username, an email and a password, on the same id
    (its hands stay its own), and from now on a member with the welcome grant."""
    user = signed_in_user(request)
    if not user.is_guest:
        messages.info(request, NotAGuest.message)
        return redirect("accounts:profile")
    form = UpgradeForm(request.POST, instance=user)
    if is_email_taken(form):  # counted as a sign-up: see signup()
        seconds = throttling.signup_seconds_refused(client_address(request))
        if seconds:
            form.add_error(None, throttling.signup_refused_message(seconds))
    if form.is_valid():
        try:
            member = guest_upgrade(
                user=user,
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        except NotAGuest:  # a second tab saved it a moment ago
            messages.info(request, NotAGuest.message)
            return redirect("accounts:profile")
        else:
            update_session_auth_hash(request, member)  # this browser stays logged in
            request.session.set_expiry(None)  # a member's log-in lasts as long as anyone's
            request.session.pop(SESSION_DAY_KEY, None)
            session_changed(member.pk)  # open sockets take the new password's log-in
            messages.success(
                request,
                f"Your account is saved: log in as {member.username} with your password. "
                f"Your hands are still yours, and {STARTING_POINTS:,} points are yours to play "
                "sit-n-gos with.",
            )
            if confirmation_link_send(user=member, request=request):
                messages.info(request, confirmation_sent_message(member))
            return redirect("accounts:profile")
    user.refresh_from_db()  # the form wrote its fields onto the guest it was bound to
    profile_form = ProfileForm(instance=user)
    return render_profile(request, profile_form, upgrade_form=form)


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = PasswordChangeWithTokensForm
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:profile")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)  # this browser stays logged in, on a new key
        tokens = password_replaced(
            self.request, form.user, revoke_tokens=bool(form.cleaned_data.get("revoke_tokens"))
        )
        message = "Your password was changed. You were logged out everywhere else."
        messages.success(self.request, message + tokens)
        return response

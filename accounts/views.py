from typing import Any

from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
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
    SignUpForm,
    UpgradeForm,
)
from accounts.guests import SESSION_DAY_KEY, NotAGuest, guest_upgrade
from accounts.member_sessions import member_sessions, sessions_end_others
from accounts.members import member_sign_up
from accounts.models import STARTING_POINTS
from accounts.requests import client_address, signed_in_user
from accounts.sessions import session_changed
from accounts.tokens import tokens_revoke_all


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
    if request.method == "POST" and form.is_valid():
        seconds = throttling.signup_seconds_refused(client_address(request))
        if not seconds:
            user = member_sign_up(form)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome to Felt, {user.username}.")
            if confirmation_link_send(user=user, request=request):
                messages.info(request, confirmation_sent_message(user))
            return redirect(next_page(request))
        form.add_error(None, throttling.signup_refused_message(seconds))
        status = 429
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    context = {"form": form, "next": wanted}
    return render(request, "accounts/signup.html", context, status=status)


class LoginView(auth_views.LoginView):
    form_class = LoginForm
    template_name = "accounts/login.html"
    redirect_authenticated_user = True


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
    form = ProfileForm(request.POST or None, instance=signed_in_user(request))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Your profile was saved.")
        return redirect("accounts:profile")
    return render_profile(request, form)


def render_profile(request: HttpRequest, form: ProfileForm, **extra: Any) -> HttpResponse:
    """The profile page, with the member's sessions and API tokens (names and prefixes,
    never keys); a guest's, with the form that saves the account instead."""
    user = signed_in_user(request)
    if user.is_guest:
        extra.setdefault("upgrade_form", UpgradeForm(instance=user))
    else:
        current_key = request.session.session_key
        sessions = member_sessions(user=user, current_key=current_key)
        extra["sessions"] = sessions
        extra["has_other_sessions"] = any(not session.is_current for session in sessions)
    tokens = user.api_tokens.all()
    data_export = user.data_exports.first()  # the latest (accounts/data_export.py)
    context = {"form": form, "tokens": tokens, "data_export": data_export, **extra}
    return render(request, "accounts/profile.html", context)


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
        user = form.user
        # The new password already refuses the other sessions; they go from the list too,
        # and their sockets close (session_changed, on commit).
        sessions_end_others(user=user, current_key=self.request.session.session_key)
        session_changed(user.pk)
        message = "Your password was changed. You were logged out everywhere else."
        if form.cleaned_data.get("revoke_tokens"):
            revoked = tokens_revoke_all(user=user)
            message += f" {revoked} API token{'s' if revoked != 1 else ''} revoked."
        messages.success(self.request, message)
        return response

from collections.abc import Iterator
from typing import Any

from django import forms
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
    UserCreationForm,
)
from django.core.exceptions import ValidationError

from accounts import throttling
from accounts.mail import queue_mail
from accounts.models import EMAIL_TAKEN, User
from accounts.names import check_display_name, check_new_username
from accounts.requests import client_address


class SignUpForm(UserCreationForm[User]):
    email = forms.EmailField(
        max_length=254,
        help_text="Used only to reach you about your account.",
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        username: str = super().clean_username()  # empty: already refused as taken
        if username:
            check_new_username(username, self.instance if self.instance.pk else None)
        return username

    def clean_email(self) -> str:
        return check_email_free(self.cleaned_data["email"], self.instance)


def check_email_free(email: str, user: User | None) -> str:
    """``email`` without its spaces, or ``ValidationError`` when another account has it
    in any case (docs/accounts.md, "Email addresses are unique"). This does tell a
    visitor that an address has an account: the price of unique addresses, kept
    down by counting each such refusal as a sign-up (accounts/views.py)."""
    email = email.strip()
    others = User.objects.filter(email__iexact=email)
    if user is not None and user.pk:
        others = others.exclude(pk=user.pk)
    if email and others.exists():
        raise ValidationError(EMAIL_TAKEN, code="email_taken")
    return email


class GuestForm(forms.Form):
    """Join a friends' table as a guest: a nickname is all it takes."""

    nickname = forms.CharField(
        max_length=40,
        help_text="What the other players see. You can save the account later.",
        error_messages={"required": "Choose a nickname to play under."},
    )

    def clean_nickname(self) -> str:
        return check_display_name(self.cleaned_data["nickname"], None)


class UpgradeForm(SignUpForm):
    """A guest's account made full: a username, an email and a password. Bound to the
    guest (``instance``), whose id, nickname and hands stay; accounts.guests saves it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial["username"] = ""  # not the made-up guest-... one
        self.fields["username"].help_text = "You log in with it; others still see your nickname."


class ThrottledLoginMixin:
    """Refuses log-in while the username or the client IP is blocked.

    While blocked, the password is not even checked, so guessing learns nothing.
    """

    request: Any
    cleaned_data: dict[str, Any]

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        ip = client_address(self.request) if self.request else ""
        self.refuse_if_blocked(username, ip)
        try:
            cleaned: dict[str, Any] = super().clean()  # type: ignore[misc]
        except ValidationError as error:
            if error.code == "invalid_login":
                throttling.record_failure(username, ip)
                self.refuse_if_blocked(username, ip)
            raise
        throttling.record_success(username, ip)
        return cleaned

    def refuse_if_blocked(self, username: str, ip: str) -> None:
        seconds = throttling.seconds_blocked(username, ip)
        if seconds:
            raise ValidationError(throttling.blocked_message(seconds), code="throttled")


class LoginForm(ThrottledLoginMixin, AuthenticationForm):
    pass


class ProfileForm(forms.ModelForm[User]):
    class Meta:
        model = User
        fields = ("display_name", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.is_guest:  # its username is made up: the nickname is its name
            self.fields["display_name"].label = "Nickname"
            self.fields["display_name"].help_text = "What the other players see."
            del self.fields["email"]  # a guest gives one when it saves the account
        else:
            self.fields["email"].required = True
            self.fields["email"].help_text = "Used only to reach you about your account."

    def clean_email(self) -> str:
        return check_email_free(self.cleaned_data["email"], self.instance)

    def save(self, commit: bool = True) -> User:
        if "email" in self.changed_data and self.instance.email:
            self.instance.must_replace_email = False  # a new address was given
        return super().save(commit)

    def clean_display_name(self) -> str:
        name = check_display_name(self.cleaned_data["display_name"], self.instance)
        if not name and self.instance.is_guest:  # a guest's username is made up, not a name
            raise ValidationError("A guest plays under a nickname: keep one.", code="required")
        return name


class ForgotPasswordForm(PasswordResetForm):
    """Asks for the address a link to a new password goes to. Django's form finds the
    accounts and makes the link (its token generator); Felt's sends it by its task,
    and only to those who can use it: docs/accounts.md, "Forgotten passwords"."""

    def get_users(self, email: str) -> Iterator[User]:
        """Active members whose confirmed address ``email`` is: never a guest (no
        address, no password), a deactivated account or an unconfirmed address."""
        for user in super().get_users(email):  # active, with a usable password
            if isinstance(user, User) and not user.is_guest and user.email_is_confirmed:
                yield user

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        queue_mail(to=to_email, template="password_reset", context=context)


class RevokeTokensChoice(forms.Form):
    """Whether the member's API tokens go with the old password, on the password
    change and the reset forms. Unticked at first: a routine change keeps the programs
    that use them working; a member who fears someone else knew the password ticks it
    (docs/accounts.md, "Sessions and tokens"). Offered only to a member with tokens."""

    revoke_tokens = forms.BooleanField(
        required=False,
        label="Also revoke my API tokens",
        help_text="Programs using them stop working until you give them a new token.",
    )

    def offer_to(self, user: Any) -> None:
        count = user.api_tokens.count()
        if not count:
            del self.fields["revoke_tokens"]
        elif count > 1:
            self.fields["revoke_tokens"].label = f"Also revoke my {count} API tokens"


class PasswordChangeWithTokensForm(PasswordChangeForm, RevokeTokensChoice):
    """Django's password change, with the tokens' choice."""

    field_order = ["old_password", "new_password1", "new_password2", "revoke_tokens"]

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.offer_to(user)


# SetPasswordForm is generic only in django-stubs: django_stubs_ext does not patch it.
class SetPasswordWithTokensForm(SetPasswordForm, RevokeTokensChoice):  # type: ignore[type-arg]
    """The new password a reset link sets, with the tokens' choice."""

    field_order = ["new_password1", "new_password2", "revoke_tokens"]

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        if user is not None:
            self.offer_to(user)


class CloseAccountForm(forms.Form):
    """Closing an account asks for its password, checked and throttled as log-in's is
    (failures count towards the same blocks). A guest has no password: its browser's
    session is its only key, so its form asks nothing more than the confirmation."""

    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: User, ip: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user, self.ip = user, ip
        if user.is_guest:
            del self.fields["password"]

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        if self.user.is_guest or "password" not in cleaned:
            return cleaned
        username = self.user.get_username()
        seconds = throttling.seconds_blocked(username, self.ip)
        if not seconds:
            if self.user.check_password(cleaned["password"]):
                throttling.record_success(username, self.ip)
                return cleaned
            throttling.record_failure(username, self.ip)
            seconds = throttling.seconds_blocked(username, self.ip)
        if seconds:
            raise ValidationError(throttling.blocked_message(seconds), code="throttled")
        raise ValidationError(
            "That is not your password. Your account is still open.", code="wrong_password"
        )


class CodeForm(forms.Form):
    """A code from an authenticator app, or a recovery code."""

    code = forms.CharField(
        max_length=40,
        label="Code",
        help_text="The 6-digit code your authenticator app shows, or one of your recovery codes.",
        error_messages={"required": "Type the code from your app."},
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "autocapitalize": "off", "spellcheck": "false"}
        ),
    )


class RemoveSecondFactorForm(CodeForm):
    """Removing the second factor: the password, and a code as at log-in."""

    password = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    field_order = ["password", "code"]

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["code"].help_text = "A code from your app, or a recovery code."

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise ValidationError("That is not your password.", code="wrong_password")
        return password

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError

from accounts import throttling
from accounts.models import User
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
            check_new_username(username)
        return username

    def clean_email(self) -> str:
        # Not checked against other accounts: sign-up answers the same whether or
        # not an address is registered, so it cannot be used to find out.
        email: str = self.cleaned_data["email"].strip()
        return email


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


class AdminLoginForm(ThrottledLoginMixin, AdminAuthenticationForm):
    pass


class ProfileForm(forms.ModelForm[User]):
    class Meta:
        model = User
        fields = ("display_name",)

    def clean_display_name(self) -> str:
        return check_display_name(self.cleaned_data["display_name"], self.instance)

"""A second factor at log-in: a code from an authenticator app (TOTP), or a recovery code.

The devices are django-otp's: a ``TOTPDevice`` holds the secret the member's app
shares, a ``StaticDevice`` their one-time recovery codes (each deleted as it is
used). A member sets one up from the profile (``totp_device_start``, then
``totp_device_confirm`` with a code from the app, which gives the recovery codes),
and from then on log-in asks for a code after the password (accounts/views.py,
``LoginView``; accounts/second_factor_views.py). ``ADMIN_REQUIRES_SECOND_FACTOR``
closes the admin site to staff who did not pass one (accounts/admin_guard.py).
docs/accounts.md, "A second factor for staff", tells the whole story.
"""

from __future__ import annotations

import math
from base64 import b32encode
from dataclasses import dataclass

import segno
from django.db import transaction
from django.utils import timezone
from django_otp import devices_for_user, user_has_device
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import User

RECOVERY_CODES = 10
APP_DEVICE_NAME = "Authenticator app"
RECOVERY_DEVICE_NAME = "Recovery codes"


class CodeRefused(Exception):
    """A code that does not let the member in; ``message`` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


WRONG_CODE = "That code is not right, or was used already. Try the next code from your app."


def has_second_factor(user: User) -> bool:
    """True once the member confirmed an authenticator app: log-in then asks for a code."""
    return bool(user_has_device(user, confirmed=True))


def recovery_codes_left(user: User) -> int:
    count: int = StaticToken.objects.filter(device__user=user, device__confirmed=True).count()
    return count


@dataclass(frozen=True)
class AppSetup:
    """What the member's authenticator app needs: the secret, as a link and a QR code."""

    secret: str  # base32, as apps take it typed
    link: str  # otpauth://totp/...
    qr_svg: str  # the link as an inline <svg>

    @property
    def secret_in_groups(self) -> str:
        return " ".join(self.secret[i : i + 4] for i in range(0, len(self.secret), 4))


def pending_app(user: User) -> TOTPDevice | None:
    """The authenticator app being set up, not confirmed yet."""
    return TOTPDevice.objects.filter(user=user, confirmed=False).first()


def totp_device_start(*, user: User) -> TOTPDevice:
    """A new secret for the member's app, unconfirmed until a code from it comes back;
    a setup started before and never finished is dropped."""
    with transaction.atomic():
        TOTPDevice.objects.filter(user=user, confirmed=False).delete()
        return TOTPDevice.objects.create(user=user, name=APP_DEVICE_NAME, confirmed=False)


def app_setup(device: TOTPDevice) -> AppSetup:
    link = str(device.config_url)
    qr_svg = segno.make(link, error="m").svg_inline(
        scale=4, title="QR code of your new second factor", border=2, omitsize=True
    )
    return AppSetup(secret=b32encode(device.bin_key).decode(), link=link, qr_svg=qr_svg)


def _normalised(code: str) -> str:
    """Codes as people type them: spaces and dashes dropped, letters in lower case."""
    return "".join(code.split()).replace("-", "").lower()


def totp_device_confirm(*, user: User, code: str) -> tuple[TOTPDevice, list[str]]:
    """The app being set up, confirmed by a code it shows, and a new set of recovery
    codes (returned once: only the member sees them). ``CodeRefused`` for a wrong code."""
    with transaction.atomic():
        device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=False).first()
        if device is None:
            raise CodeRefused("Start the set-up again: it was finished or replaced.")
        if not device.verify_token(_normalised(code)):
            raise CodeRefused(
                "That code does not match. Check that your app shows the account "
                "just added, and type its current code."
            )
        # One app at a time (starting refuses while one is set up): the codes of any
        # earlier one go.
        StaticDevice.objects.filter(user=user).delete()
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        recovery = StaticDevice.objects.create(user=user, name=RECOVERY_DEVICE_NAME)
        codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
        StaticToken.objects.bulk_create(StaticToken(device=recovery, token=c) for c in codes)
    return device, codes


def second_factor_remove(*, user: User) -> None:
    """The member's app and recovery codes are gone: log-in asks for the password only."""
    with transaction.atomic():
        TOTPDevice.objects.filter(user=user).delete()
        StaticDevice.objects.filter(user=user).delete()


def _is_app_code(code: str) -> bool:
    return code.isdigit() and len(code) in (6, 8)


def code_verify(*, user: User, code: str) -> Device:
    """The device that accepts ``code`` for ``user``: the app's for six digits, else a
    recovery code (used up by this). ``CodeRefused`` when neither does, or while the
    device waits after wrong codes (django-otp doubles the wait after each one)."""
    code = _normalised(code)
    wanted = TOTPDevice if _is_app_code(code) else StaticDevice
    with transaction.atomic():
        devices = [d for d in devices_for_user(user, for_verify=True) if isinstance(d, wanted)]
        if not devices:
            raise CodeRefused(WRONG_CODE)
        for device in devices:
            is_allowed, details = device.verify_is_allowed()
            if not is_allowed:
                locked_until = (details or {}).get("locked_until")
                seconds = 1
                if locked_until is not None:
                    seconds = max(1, math.ceil((locked_until - timezone.now()).total_seconds()))
                raise CodeRefused(
                    f"After a wrong code, wait {seconds} second{'s' if seconds != 1 else ''} "
                    "before the next try."
                )
            if device.verify_token(code):
                return device
    raise CodeRefused(WRONG_CODE)

"""Second factors as a member's phone makes them: codes worked out from the secret that
the set-up page shows (RFC 6238's TOTP: HOTP of the 30-second step), not read from the
server's device."""

from __future__ import annotations

import re
import time
from base64 import b32decode
from html import unescape

from django.test import Client
from django.urls import reverse
from django_otp.oath import hotp


def code_from_secret(secret: str, at: float | None = None) -> str:
    """The 6-digit code an authenticator app shows for ``secret`` at ``at`` (now)."""
    key = b32decode(secret.replace(" ", "").upper())
    step = int((time.time() if at is None else at) // 30)
    return f"{hotp(key, step):06d}"


def textarea(page: str, marker: str) -> str:
    found = re.search(rf"<textarea[^>]*{marker}[^>]*>(.*?)</textarea>", page, re.S)
    assert found, f"no {marker} on the page"
    return unescape(found.group(1))


def set_up_an_app(client: Client) -> tuple[str, list[str]]:
    """The signed-in member sets up an authenticator app from the profile, as a person
    would: the secret read from the page, its code typed back. Returns the secret and
    the recovery codes shown."""
    client.post(reverse("accounts:second_factor_start"))
    page = client.get(reverse("accounts:second_factor_setup")).content.decode()
    secret = textarea(page, "data-totp-secret")
    response = client.post(
        reverse("accounts:second_factor_setup"), {"code": code_from_secret(secret)}
    )
    codes = textarea(response.content.decode(), "data-recovery-codes").split()
    return secret, codes

"""Confirming a member's address: a signed, expiring link sent to it.

Felt uses an address for password resets only once a link sent to it was
followed (``User.email_is_confirmed``): a mistyped or someone else's address
then never receives a way into the account. The link carries the member's id
and the address, signed with the site's key (``django.core.signing``) and dated,
so it works for EMAIL_CONFIRM_TIMEOUT seconds, for that address only, and once:
after it, the address is confirmed and the link says it was used.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from accounts.mail import queue_mail
from accounts.models import User

SALT = "accounts.addresses.confirm"


class LinkRefused(Exception):
    """A confirmation link that confirms nothing, with the reason for the member."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


NOT_VALID = LinkRefused(
    "This link is not valid. Copy the whole link from the mail, or send a new one "
    "from your profile."
)


def confirmation_days() -> int:
    return max(1, settings.EMAIL_CONFIRM_TIMEOUT // (24 * 3600))


def confirmation_sent_message(user: User) -> str:
    days = confirmation_days()
    return (
        f"We sent a link to {user.email} to confirm it is yours. "
        f"It works for {days} day{'s' if days != 1 else ''}."
    )


def confirmation_link_send(*, user: User, request: HttpRequest) -> bool:
    """Mail ``user`` a link confirming their address, unless there is nothing to
    confirm (a guest, no address, confirmed already); True when one is on its way."""
    if user.is_guest or not user.email or user.email_is_confirmed:
        return False
    token = signing.dumps({"user": user.pk, "email": user.email}, salt=SALT, compress=True)
    link = request.build_absolute_uri(reverse("accounts:email_confirm", args=[token]))
    context = {"user": user, "link": link, "days": confirmation_days()}
    queue_mail(to=user.email, template="confirm_email", context=context)
    return True


def _signed(token: str) -> dict[str, Any]:
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.EMAIL_CONFIRM_TIMEOUT)
    except signing.SignatureExpired:
        raise LinkRefused(
            "This link has expired. Log in and send a new one from your profile."
        ) from None
    except signing.BadSignature:
        raise NOT_VALID from None
    if not (isinstance(data, dict) and isinstance(data.get("user"), int)):
        raise NOT_VALID
    if not isinstance(data.get("email"), str):
        raise NOT_VALID
    return data


def email_confirm(token: str) -> User:
    """The member whose address the link ``token`` confirms, now confirmed;
    ``LinkRefused`` with the reason when it confirms nothing."""
    data = _signed(token)
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=data["user"], is_active=True).first()
        if user is None:
            raise NOT_VALID
        if user.email.casefold() != data["email"].casefold():
            raise LinkRefused(
                "This link is for an address your account no longer uses. "
                "Send a link to your current address from your profile."
            )
        if user.email_is_confirmed:
            raise LinkRefused("This link was used already: your address is confirmed.")
        user.confirmed_email, user.email_confirmed_at = user.email, timezone.now()
        user.save(update_fields=["confirmed_email", "email_confirmed_at"])
    return user

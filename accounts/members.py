"""A member's account made from the sign-up form, with the points it starts with."""

from __future__ import annotations

from django.db import transaction

from accounts.forms import SignUpForm
from accounts.models import User
from accounts.points import points_account_open


def member_sign_up(form: SignUpForm) -> User:
    """The member a valid sign-up form describes, and their welcome grant, in one
    transaction: an account never exists without its points."""
    with transaction.atomic():
        user = form.save()
        points_account_open(user=user)
    return user

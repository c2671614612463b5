"""A member's account made from the sign-up form, with the points it starts with."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.forms import SignUpForm
from accounts.models import EMAIL_TAKEN, EMAIL_UNIQUE, NAME_TAKEN, User
from accounts.points import points_account_open


def member_sign_up(form: SignUpForm) -> User:
    """The member a valid sign-up form describes, and their welcome grant, in one
    transaction: an account never exists without its points. ``ValidationError`` when
    another sign-up took the username or the address since the form was checked."""
    try:
        with transaction.atomic():
            user = form.save()
            points_account_open(user=user)
    except IntegrityError as error:
        raise taken_since_checked(error) from None
    return user


def taken_since_checked(error: IntegrityError) -> ValidationError:
    """What to tell a member whose username or email address another account took
    between the form's check and the save: the database's unique constraints settle
    such races, and the name of the one that refused is in its error."""
    if EMAIL_UNIQUE in str(error):
        return ValidationError({"email": EMAIL_TAKEN}, code="email_taken")
    if "display_name" in str(error):  # its two constraints (accounts/models.py)
        return ValidationError({"display_name": NAME_TAKEN}, code="name_taken")
    return ValidationError({"username": "A user with that username already exists."}, code="unique")

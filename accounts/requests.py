"""The signed-in member of a request, typed as the user model."""

from django.http import HttpRequest

from accounts.models import User


def signed_in_user(request: HttpRequest) -> User:
    """``request.user`` on a page that requires log-in (``login_required`` ran first)."""
    user = request.user
    if not isinstance(user, User):
        raise TypeError("this page needs a signed-in member; is login_required missing?")
    return user

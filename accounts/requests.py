"""What a request says about who sent it: the signed-in member, the client's address."""

from django.http import HttpRequest

from accounts.models import User


def signed_in_user(request: HttpRequest) -> User:
    """``request.user`` on a page that requires log-in (``login_required`` ran first)."""
    user = request.user
    if not isinstance(user, User):
        raise TypeError("this page needs a signed-in member; is login_required missing?")
    return user


def client_address(request: HttpRequest) -> str:
    """The client's address, as throttling counts it. Daphne sets it: the peer's, or
    behind a proxy (PROXY_HEADERS, scripts/run.py) the one X-Forwarded-For names."""
    return str(request.META.get("REMOTE_ADDR", ""))

"""Template context every page gets: the signed-in member's points for the navigation."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.points import points_balance


def points(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or user.is_guest:
        return {}  # a guest has no points (accounts/guests.py)
    balance = points_balance(user=user)
    return {"points_balance": balance, "points_balance_text": f"{balance:,}"}

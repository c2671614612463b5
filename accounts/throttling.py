"""Log-in throttling against password guessing.

Failures are counted per username and per client IP in the shared cache
(Redis), so every Daphne process sees the same counts. After
LOGIN_FAILURE_LIMIT failures within LOGIN_FAILURE_WINDOW seconds for either,
log-in is refused for LOGIN_BLOCK_SECONDS without checking the password.
"""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.core.cache import cache


def _subjects(username: str, ip: str) -> list[str]:
    """What is throttled: the client address and, when given, the username."""
    subjects = [f"ip:{ip}"]
    if username:
        subjects.append(f"user:{username.casefold()}")
    return subjects


def seconds_blocked(username: str, ip: str) -> int:
    """How long log-in stays refused for this username or IP; 0 when allowed."""
    ends = [cache.get(f"login-block:{subject}", 0) for subject in _subjects(username, ip)]
    return max(0, math.ceil(max(ends) - time.time()))


def record_failure(username: str, ip: str) -> None:
    for subject in _subjects(username, ip):
        count_key = f"login-failures:{subject}"
        # The window starts at the first failure; add() keeps it from moving.
        cache.add(count_key, 0, timeout=settings.LOGIN_FAILURE_WINDOW)
        try:
            failures = cache.incr(count_key)
        except ValueError:  # the window expired between add() and incr()
            cache.set(count_key, 1, timeout=settings.LOGIN_FAILURE_WINDOW)
            failures = 1
        if failures >= settings.LOGIN_FAILURE_LIMIT:
            block_seconds = settings.LOGIN_BLOCK_SECONDS
            cache.set(f"login-block:{subject}", time.time() + block_seconds, block_seconds)
            cache.delete(count_key)


def record_success(username: str) -> None:
    """A correct password clears the username's failures (not the IP's)."""
    cache.delete(f"login-failures:user:{username.casefold()}")


def blocked_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    unit = "minute" if minutes == 1 else "minutes"
    return f"Too many failed log-in attempts. Try again in {minutes} {unit}."

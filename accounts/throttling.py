"""Log-in throttling against password guessing.

Failures are counted in the shared cache (Redis), so every Daphne process
sees the same counts, for three subjects with their own limits within
LOGIN_FAILURE_WINDOW seconds:

- a username from one address (LOGIN_FAILURE_LIMIT): someone guessing a
  member's password is stopped, while the member, from their own address,
  can still sign in;
- one address, whatever the usernames (LOGIN_ADDRESS_FAILURE_LIMIT): one
  machine guessing many accounts;
- a username from every address together (LOGIN_USERNAME_FAILURE_LIMIT, much
  higher): guessing spread over many addresses, the only case where the
  member's own log-in is refused too.

Past a limit, log-in for that subject is refused for LOGIN_BLOCK_SECONDS
without checking the password.
"""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.core.cache import cache


def _subjects(username: str, ip: str) -> list[tuple[str, int]]:
    """What is throttled, each with its limit."""
    subjects = [(f"ip:{ip}", settings.LOGIN_ADDRESS_FAILURE_LIMIT)]
    if username:
        name = username.casefold()
        subjects.append((f"user-ip:{name}:{ip}", settings.LOGIN_FAILURE_LIMIT))
        subjects.append((f"user:{name}", settings.LOGIN_USERNAME_FAILURE_LIMIT))
    return subjects


def seconds_blocked(username: str, ip: str) -> int:
    """How long log-in stays refused for this username at this address; 0 when allowed."""
    ends: list[float] = [
        cache.get(f"login-block:{subject}", 0) for subject, _ in _subjects(username, ip)
    ]
    return max(0, math.ceil(max(ends) - time.time()))


def record_failure(username: str, ip: str) -> None:
    for subject, limit in _subjects(username, ip):
        count_key = f"login-failures:{subject}"
        # The window starts at the first failure; add() keeps it from moving.
        cache.add(count_key, 0, timeout=settings.LOGIN_FAILURE_WINDOW)
        try:
            failures = cache.incr(count_key)
        except ValueError:  # the window expired between add() and incr()
            cache.set(count_key, 1, timeout=settings.LOGIN_FAILURE_WINDOW)
            failures = 1
        if failures >= limit:
            block_seconds = settings.LOGIN_BLOCK_SECONDS
            cache.set(f"login-block:{subject}", time.time() + block_seconds, block_seconds)
            cache.delete(count_key)


def record_success(username: str, ip: str) -> None:
    """A correct password clears the username's failures from this address."""
    cache.delete(f"login-failures:user-ip:{username.casefold()}:{ip}")


def blocked_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    unit = "minute" if minutes == 1 else "minutes"
    return f"Too many failed log-in attempts. Try again in {minutes} {unit}."

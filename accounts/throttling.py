"""Log-in throttling against password guessing, and sign-up throttling.

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

The second step of a log-in (a code from an authenticator app or a recovery
code, accounts/second_factor.py) is counted the same way with the same limits,
under counters of its own (``step=CODE``): a correct password clears the
password's failures, and must not clear the codes' too, or knowing the password
would buy endless guesses at the code.

Sign-up is counted per address too: every account costs the site a welcome
grant, so one address makes at most SIGNUP_ADDRESS_LIMIT accounts an hour
(the hour starts at its first sign-up). The count is taken before the account
is made, so sign-ups racing each other cannot all slip under the limit. A form
refused because its email address is taken counts too (accounts/views.py): the
refusal tells that the address has an account, and asking that of many
addresses is throttled like making accounts.
"""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.core.cache import cache

PASSWORD = ""  # the first step of a log-in
CODE = "code:"  # the second: a code from the member's second factor


def _subjects(username: str, ip: str, step: str) -> list[tuple[str, int]]:
    """What is throttled, each with its limit."""
    subjects = [(f"{step}ip:{ip}", settings.LOGIN_ADDRESS_FAILURE_LIMIT)]
    if username:
        name = username.casefold()
        subjects.append((f"{step}user-ip:{name}:{ip}", settings.LOGIN_FAILURE_LIMIT))
        subjects.append((f"{step}user:{name}", settings.LOGIN_USERNAME_FAILURE_LIMIT))
    return subjects


def seconds_blocked(username: str, ip: str, step: str = PASSWORD) -> int:
    """How long log-in stays refused for this username at this address; 0 when allowed."""
    ends: list[float] = [
        cache.get(f"login-block:{subject}", 0) for subject, _ in _subjects(username, ip, step)
    ]
    return max(0, math.ceil(max(ends) - time.time()))


def _counted(key: str, window: int) -> int:
    """Adds one to the count at ``key``, which lasts ``window`` seconds from its first."""
    # add() keeps the window from moving; incr() is atomic in Redis.
    cache.add(key, 0, timeout=window)
    try:
        return int(cache.incr(key))
    except ValueError:  # the window expired between add() and incr()
        cache.set(key, 1, timeout=window)
        return 1


def record_failure(username: str, ip: str, step: str = PASSWORD) -> None:
    for subject, limit in _subjects(username, ip, step):
        count_key = f"login-failures:{subject}"
        failures = _counted(count_key, settings.LOGIN_FAILURE_WINDOW)
        if failures >= limit:
            block_seconds = settings.LOGIN_BLOCK_SECONDS
            cache.set(f"login-block:{subject}", time.time() + block_seconds, block_seconds)
            cache.delete(count_key)


def record_success(username: str, ip: str, step: str = PASSWORD) -> None:
    """A correct password (or code) clears the username's failures of that step from
    this address."""
    cache.delete(f"login-failures:{step}user-ip:{username.casefold()}:{ip}")


def blocked_message(seconds: int) -> str:
    return f"Too many failed log-in attempts. Try again in {_minutes(seconds)}."


def _minutes(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return f"{minutes} minute" if minutes == 1 else f"{minutes} minutes"


SIGNUP_WINDOW_SECONDS = 3600


def _signup_hour_end(ip: str) -> float:
    """When the hour counting this address's sign-ups ends."""
    now = time.time()
    key = f"signup-hour:{ip}"
    if cache.add(key, now + SIGNUP_WINDOW_SECONDS, timeout=SIGNUP_WINDOW_SECONDS):
        return now + SIGNUP_WINDOW_SECONDS
    ends = cache.get(key)
    if ends is None or ends <= now:  # it ran out after add(), or the clock jumped past it
        ends = now + SIGNUP_WINDOW_SECONDS
        cache.set(key, ends, timeout=SIGNUP_WINDOW_SECONDS)
    return float(ends)


def signup_seconds_refused(ip: str) -> int:
    """Counts an account about to be made from ``ip``: 0 while the address is within
    SIGNUP_ADDRESS_LIMIT this hour; past it, the seconds until it may sign up again."""
    ends = _signup_hour_end(ip)
    # The hour's end names its count, so a new hour never inherits an old count.
    if _counted(f"signups:{ip}:{ends}", SIGNUP_WINDOW_SECONDS) <= settings.SIGNUP_ADDRESS_LIMIT:
        return 0
    return max(1, math.ceil(ends - time.time()))


def signup_refused_message(seconds: int) -> str:
    return (
        "Too many accounts have been made from your address this hour. "
        f"Try again in {_minutes(seconds)}."
    )

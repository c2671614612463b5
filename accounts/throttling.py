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

Links sent by mail (a password reset, a confirmation sent again) are counted
like log-in failures, every request rather than failures only, within an hour
(MAIL_LINK_WINDOW): per address typed into the form, whether or not an account
uses it (MAIL_LINK_ACCOUNT_LIMIT), and per client address
(MAIL_LINK_ADDRESS_LIMIT). Past either, no link is sent for the rest of the hour.
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


def _seconds_blocked(kind: str, subjects: list[tuple[str, int]]) -> int:
    """How long the longest block of any of ``subjects`` lasts yet; 0 when none."""
    ends: list[float] = [cache.get(f"{kind}-block:{subject}", 0) for subject, _ in subjects]
    return max(0, math.ceil(max(ends) - time.time()))


def _count(kind: str, subjects: list[tuple[str, int]], window: int, block_seconds: int) -> None:
    """Counts one more for each subject within ``window``; one reaching its limit is
    blocked for ``block_seconds`` and its count starts again."""
    for subject, limit in subjects:
        count_key = f"{kind}-counts:{subject}"
        if _counted(count_key, window) >= limit:
            cache.set(f"{kind}-block:{subject}", time.time() + block_seconds, block_seconds)
            cache.delete(count_key)


def seconds_blocked(username: str, ip: str, step: str = PASSWORD) -> int:
    """How long log-in (its ``step``) stays refused for this username at this address;
    0 when allowed."""
    return _seconds_blocked("login", _subjects(username, ip, step))


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
    subjects = _subjects(username, ip, step)
    _count("login", subjects, settings.LOGIN_FAILURE_WINDOW, settings.LOGIN_BLOCK_SECONDS)


def record_success(username: str, ip: str, step: str = PASSWORD) -> None:
    """A correct password (or code) clears the username's failures of that step from
    this address."""
    cache.delete(f"login-counts:{step}user-ip:{username.casefold()}:{ip}")


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


MAIL_LINK_WINDOW = 3600


def mail_link_seconds_refused(email: str, ip: str) -> int:
    """Counts a link asked for by mail to ``email`` from ``ip``: 0 while both are within
    their limits this hour; past either, the seconds until one may be asked for again
    (and this request is not counted)."""
    subjects = [
        (f"ip:{ip}", settings.MAIL_LINK_ADDRESS_LIMIT),
        (f"email:{email.strip().casefold()}", settings.MAIL_LINK_ACCOUNT_LIMIT),
    ]
    seconds = _seconds_blocked("mail-links", subjects)
    if not seconds:
        _count("mail-links", subjects, MAIL_LINK_WINDOW, MAIL_LINK_WINDOW)
    return seconds


def mail_link_refused_message(seconds: int) -> str:
    return f"Too many links have been asked for. Try again in {_minutes(seconds)}."

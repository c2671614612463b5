"""REST API throttling with one atomic counter per caller and window, in Redis.

DRF's own throttles read the caller's request history, add to it and write it
back: concurrent requests all read the same history, and each is let through
(758 got in against a rate of 600 a minute). Here each request adds one to a
counter with a single atomic increment, so the count is exact however many
arrive at once. The window is fixed (a minute starts on the minute).

Every answer under /api/ says what is left of the caller's budget, in the
``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds)
headers of the IETF draft, so a client can slow down before it gets a 429;
the 429 itself keeps ``Retry-After``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle


@dataclass(frozen=True)
class Budget:
    """One throttle's window as a caller has used it."""

    limit: int
    used: int
    reset_seconds: int

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.used)


def _note_budget(request: Any, budget: Budget) -> None:
    """Keep the tightest budget of the request's throttles on the Django request (DRF's
    wraps it), for ``RateLimitHeadersMiddleware`` to show."""
    target = getattr(request, "_request", request)
    shown: Budget | None = getattr(target, "rate_budget", None)
    if shown is None or budget.remaining < shown.remaining:
        target.rate_budget = budget


class RateLimitHeadersMiddleware:
    """Adds the caller's remaining budget to every answer a throttled view gave."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        budget: Budget | None = getattr(request, "rate_budget", None)
        if budget is not None:
            response["RateLimit-Limit"] = str(budget.limit)
            response["RateLimit-Remaining"] = str(budget.remaining)
            response["RateLimit-Reset"] = str(max(0, budget.reset_seconds))
        return response


class AtomicRateThrottle(SimpleRateThrottle):
    window_ends = 0.0
    # Set by SimpleRateThrottle.__init__ from the rate (absent from its stubs).
    num_requests: int
    duration: int

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = time.time()
        window = int(now // self.duration)
        self.window_ends = (window + 1) * self.duration
        counter = f"{key}:{window}"
        self.cache.add(counter, 0, self.duration + 1)  # SET NX: the window's first request
        try:
            count = self.cache.incr(counter)
        except ValueError:  # expired between add() and incr(): a new window
            self.cache.add(counter, 0, self.duration + 1)
            count = self.cache.incr(counter)
        _note_budget(request, Budget(self.num_requests, count, math.ceil(self.window_ends - now)))
        return bool(count <= self.num_requests)

    def wait(self) -> float | None:
        return max(0.0, self.window_ends - time.time())


class AnonThrottle(AtomicRateThrottle, AnonRateThrottle):
    """Anonymous callers, per address (API_ANON_RATE)."""


class UserThrottle(AtomicRateThrottle, UserRateThrottle):
    """Signed-in callers, per member (API_USER_RATE)."""

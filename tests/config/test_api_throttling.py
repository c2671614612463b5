"""The API's rate limits count every request exactly, even when they arrive at once."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from config.platform import api_throttles
from config.platform.api_throttles import AtomicRateThrottle, UserThrottle

pytestmark = pytest.mark.usefixtures("clean_redis")


def test_concurrent_requests_never_get_past_the_rate(monkeypatch) -> None:
    # All in one window: a minute turning over mid-run would let some of the 400
    # through in the next one, a count between 50 and 100 that proves nothing.
    middle_of_a_minute = (time.time() // 60) * 60 + 30
    monkeypatch.setattr(api_throttles, "time", SimpleNamespace(time=lambda: middle_of_a_minute))
    throttle = UserThrottle()
    throttle.rate = "50/min"
    throttle.num_requests, throttle.duration = throttle.parse_rate(throttle.rate)
    member = SimpleNamespace(pk=4242, is_authenticated=True)
    request = SimpleNamespace(user=member, META={"REMOTE_ADDR": "10.0.0.1"})

    def ask(_: int) -> bool:
        return UserThrottle.allow_request(throttle, request, None)  # a fresh call each time

    with ThreadPoolExecutor(max_workers=16) as pool:
        answers = list(pool.map(ask, range(400)))

    assert sum(answers) == 50


@pytest.mark.django_db
def test_the_request_over_the_rate_gets_a_429_saying_when_to_retry(make_user, monkeypatch) -> None:
    monkeypatch.setattr(UserThrottle, "THROTTLE_RATES", {"anon": "60/min", "user": "3/min"})
    api = APIClient()
    api.force_authenticate(make_user())
    codes = [api.get(reverse("api:me")).status_code for _ in range(3)]
    over = api.get(reverse("api:me"))
    assert codes == [200, 200, 200]
    assert over.status_code == 429 and 0 <= int(over["Retry-After"]) <= 60


@pytest.mark.django_db
def test_every_answer_says_what_is_left_of_the_budget(make_user, monkeypatch) -> None:
    monkeypatch.setattr(UserThrottle, "THROTTLE_RATES", {"anon": "60/min", "user": "3/min"})
    api = APIClient()
    api.force_authenticate(make_user())
    answers = [api.get(reverse("api:me")) for _ in range(4)]
    assert [a["RateLimit-Limit"] for a in answers] == ["3"] * 4
    assert [a["RateLimit-Remaining"] for a in answers] == ["2", "1", "0", "0"]
    assert all(0 <= int(a["RateLimit-Reset"]) <= 60 for a in answers)
    assert answers[-1].status_code == 429 and answers[-1]["Retry-After"]


@pytest.mark.django_db
def test_an_anonymous_caller_sees_the_tighter_of_its_two_budgets(client, monkeypatch) -> None:
    monkeypatch.setattr(AtomicRateThrottle, "THROTTLE_RATES", {"anon": "5/min", "user": "600/min"})
    answer = client.get(reverse("api:schema"))
    assert (answer["RateLimit-Limit"], answer["RateLimit-Remaining"]) == ("5", "4")

"""Time the hand-history API: ``manage.py bench_history_api --user me [--requests 100]``.

Requests go through Django's test client in this process (the whole view,
serializer and database work; no network), signed in as ``--user``, with
throttling switched off for the run. For each endpoint it prints p50, p95 and
max in milliseconds and the SQL queries one request makes:

- ``GET /api/hands/`` (first page) and a deep page (``--deep`` pages in, by
  its cursor);
- ``GET /api/hands/<id>/`` for random hands of the user's;
- ``GET /api/players/<user>/stats/`` (all hands) and with a filter, and
  another member's (over the hands both played).

A benchmark, not a test: nothing fails on a slow figure.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test import Client

from config.platform.api_throttles import AnonThrottle, UserThrottle
from tables.models import HandPlayer


class Command(BaseCommand):
    help = "Measure p50/p95 and query counts of the hand-history API endpoints."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--user", default="me")
        parser.add_argument("--requests", type=int, default=100)
        parser.add_argument("--deep", type=int, default=100, help="pages in for the deep page")

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(f"no member {options['user']!r}: run seed_hands first")
        # Each class's own setting, if it had one: putting back an inherited value as
        # its own would shadow a later change made on a parent class.
        own_rates = {t: vars(t).get("THROTTLE_RATES") for t in (AnonThrottle, UserThrottle)}
        hosts = settings.ALLOWED_HOSTS
        try:
            for throttle in own_rates:
                throttle.THROTTLE_RATES = {"anon": None, "user": None}
            settings.ALLOWED_HOSTS = [*hosts, "testserver"]
            self._run(user, options)
        finally:
            for throttle, rate in own_rates.items():
                if rate is None:
                    del throttle.THROTTLE_RATES
                else:
                    throttle.THROTTLE_RATES = rate
            settings.ALLOWED_HOSTS = hosts

    def _run(self, user: Any, options: dict[str, Any]) -> None:
        client = Client()
        client.force_login(user)
        count = options["requests"]
        hands = HandPlayer.objects.filter(user=user).count()
        total = HandPlayer.objects.values("hand_id").distinct().count()
        self.stdout.write(f"{connection.vendor}: {user.username} has {hands} of {total} hands")
        deep = self._deep_url(client, options["deep"])
        ids = list(HandPlayer.objects.filter(user=user).values_list("hand_id", flat=True)[:5000])
        rng = random.Random(1)
        cases = {
            "hands first page": lambda: "/api/hands/",
            f"hands page {options['deep']}": lambda: deep,
            "hand detail": lambda: f"/api/hands/{rng.choice(ids)}/",
            "stats (all)": lambda: f"/api/players/{user.username}/stats/",
            "stats (position=BTN)": lambda: f"/api/players/{user.username}/stats/?position=BTN",
        }
        other = (
            HandPlayer.objects.filter(hand__players__user=user, user__isnull=False)
            .exclude(user=user)
            .values_list("user__username", flat=True)
            .first()
        )
        if other:  # another member: only the hands both were dealt into count
            cases[f"stats of {other}"] = lambda: f"/api/players/{other}/stats/"
        for name, url in cases.items():
            self._measure(client, name, url, count)

    def _deep_url(self, client: Client, pages: int) -> str:
        url = "/api/hands/"
        for _ in range(pages - 1):
            following = client.get(url).json()["next"]
            if following is None:
                break
            url = following
        return str(url)

    def _measure(self, client: Client, name: str, url: Any, count: int) -> None:
        client.get(url())  # warm-up: connection, caches
        times = []
        queries: list[str] = []

        def note(execute: Any, sql: str, *args: Any) -> Any:
            queries.append(sql)
            return execute(sql, *args)

        with connection.execute_wrapper(note):
            response = client.get(url())
        assert response.status_code == 200, (name, response.status_code)
        for _ in range(count):
            target = url()
            start = time.perf_counter()
            response = client.get(target)
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        p95 = times[max(0, int(len(times) * 0.95) - 1)]
        self.stdout.write(
            f"{name:24} p50 {statistics.median(times):7.1f} ms  p95 {p95:7.1f} ms  "
            f"max {times[-1]:7.1f} ms  queries {len(queries)}"
        )

"""The seeding command stores hands as play does; the benchmark runs over them."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from accounts.models import User
from tables.hand_filters import finished_rows
from tables.models import Hand, HandPlayer
from tables.stats import summed_counters, totals_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_redis")]


def test_seeded_hands_have_players_facts_and_totals_that_agree():
    call_command("seed_hands", hands=120, me="me", me_share=0.5, stdout=StringIO())
    assert Hand.objects.count() == 120
    assert Hand.objects.filter(ended_at__isnull=True).count() == 0
    for hand in Hand.objects.all()[:20]:
        players = list(hand.players.all())
        assert 2 <= len(players) <= 6 and sum(p.net for p in players) == 0
        assert hand.pot == sum(p["amount"] for p in hand.pots)
    me = User.objects.get(username="me")
    assert 30 < HandPlayer.objects.filter(user=me).count() < 90
    assert totals_of(me) == pytest.approx(summed_counters(finished_rows(me)))


def test_the_benchmark_reports_every_endpoint_and_leaves_throttling_on():
    from config.api_throttles import UserThrottle

    before = UserThrottle.THROTTLE_RATES
    call_command("seed_hands", hands=60, me="me", me_share=0.5, stdout=StringIO())
    out = StringIO()
    call_command("bench_history_api", user="me", requests=3, deep=2, stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(("sqlite: me has", "postgresql: me has"))
    assert any(line.startswith("hand detail") and "queries 4" in line for line in lines)
    assert any(line.startswith("stats (all)") for line in lines)
    assert UserThrottle.THROTTLE_RATES is before

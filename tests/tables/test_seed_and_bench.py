"""The seeding command stores hands as play does; the benchmark runs over them."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

import engine
from accounts.models import User
from tables.history.facts import hand_facts, has_allin_ev
from tables.history.filters import finished_rows
from tables.history.stats import summed_counters, totals_of
from tables.models import Hand, HandPlayer

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


FACT_FIELDS = [
    f.name
    for f in HandPlayer._meta.concrete_fields
    if f.name not in ("id", "hand", "user", "name", "is_bot", "started_at")
]


@pytest.mark.parametrize("allin_ev", ["exact", "pending"])
def test_every_seeded_player_row_is_what_replaying_its_hand_gives(allin_ev):
    call_command("seed_hands", hands=80, seed=7, allin_ev=allin_ev, stdout=StringIO())
    pending = 0
    for hand in Hand.objects.prefetch_related("players"):
        state = engine.replay([engine.event_from_dict(e) for e in hand.events])
        with_ev = allin_ev == "exact"
        facts = hand_facts(state, with_allin_ev=with_ev)
        pending += hand.allin_ev_pending
        assert hand.allin_ev_pending == (not with_ev and has_allin_ev(state))
        for row in hand.players.all():
            expected = {
                "seat": row.seat,
                "hole_cards": [engine.card_str(c) for c in state.hole_cards(row.seat)],
                "starting_stack": state.starting_stacks[row.seat],
                "final_stack": state.stacks[row.seat],
                "net": state.stacks[row.seat] - state.starting_stacks[row.seat],
                "was_shown": state.has_shown[row.seat],
                "is_button": row.seat == state.button,
                "is_small_blind": row.seat == state.small_blind_seat,
                "is_big_blind": row.seat == state.big_blind_seat,
                **facts[row.seat],
            }
            stored = {name: getattr(row, name) for name in FACT_FIELDS}
            assert stored.pop("hole_cards") == expected.pop("hole_cards")
            assert stored == pytest.approx(expected), (hand.pk, row.seat)
            assert row.started_at == hand.started_at and row.name == row.user.username
    if allin_ev == "pending":
        assert pending > 0, "some all-in hands were seeded, left for the sweep"


def test_the_benchmark_reports_every_endpoint_and_leaves_throttling_on():
    from config.platform.api_throttles import AnonThrottle, UserThrottle

    before = UserThrottle.THROTTLE_RATES
    own = {t: "THROTTLE_RATES" in vars(t) for t in (AnonThrottle, UserThrottle)}
    call_command("seed_hands", hands=60, me="me", me_share=0.5, stdout=StringIO())
    out = StringIO()
    call_command("bench_history_api", user="me", requests=3, deep=2, stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(("sqlite: me has", "postgresql: me has"))
    assert any(line.startswith("hand detail") and "queries 4" in line for line in lines)
    assert any(line.startswith("stats (all)") for line in lines)
    assert UserThrottle.THROTTLE_RATES is before
    # nor a setting of their own that would hide a later change to their parent's
    assert {t: "THROTTLE_RATES" in vars(t) for t in (AnonThrottle, UserThrottle)} == own

"""Hands stored before the stats facts existed get them from the migration that adds them."""

from __future__ import annotations

import pytest
from django.utils import timezone

import engine
from tables.history.facts import hand_facts
from tests.support.migrations import migrate, scratch_database
from tests.tables.recorded import SHOWDOWN_WITH_MUCK, recorded_state

BEFORE = [("tables", "0002_seat_survives_account_deletion")]
AFTER = [("tables", "0003_handplayer_stats_facts")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_in_the_facts_of_older_hands() -> None:
    with scratch_database() as database:
        old = migrate(database, BEFORE)
        state = recorded_state(SHOWDOWN_WITH_MUCK)
        table = old.get_model("tables", "Table").objects.create(name="Old")
        now = timezone.now()
        hand = old.get_model("tables", "Hand").objects.create(
            table=table, number=1, button=state.button, big_blind_seat=state.big_blind_seat,
            small_blind=10, big_blind=20, started_at=now, ended_at=now,
            events=[e.to_dict() for e in state.events],
            pots=[e.to_dict() for e in state.events if isinstance(e, engine.PotAwarded)],
        )  # fmt: skip
        for seat in state.players:
            old.get_model("tables", "HandPlayer").objects.create(
                hand=hand, seat=seat, name=f"p{seat}", starting_stack=1000,
                final_stack=state.stacks[seat], net=state.stacks[seat] - 1000,
            )  # fmt: skip
        new = migrate(database, AFTER)
        rows = {p.seat: p for p in new.get_model("tables", "HandPlayer").objects.all()}
        expected = hand_facts(state)
        assert new.get_model("tables", "Hand").objects.get().pot == 180
        for seat, facts in expected.items():
            assert rows[seat].started_at == now
            assert {k: getattr(rows[seat], k) for k in facts} == facts

"""Where a multi-table tournament's tables stop dealing: its breaks (the level clock
stops, tables pause between hands and resume after), and hand-for-hand one place from
the money (each table plays a hand, then waits for the others).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

import engine
from tables import selectors
from tables import services as table_services
from tables.models import Seat, Table
from tables.play import hand_state
from tests.support.tournaments import registered, scheduled, started, step
from tests.tables.helpers import decision_of
from tests.tournaments.helpers import members
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


# --- breaks ---------------------------------------------------------------------


def test_the_level_clock_stops_during_breaks() -> None:
    start = timezone.now()
    tournament = Tournament(
        kind="mtt", started_at=start, break_every_minutes=60, break_minutes=5
    )  # the regular structure: 10-minute levels
    at = lambda minutes: start + timedelta(minutes=minutes)  # noqa: E731

    assert tournament.level_at(at(30))[0] == 3
    assert tournament.break_ends_at(at(59)) is None
    assert tournament.break_ends_at(at(62)) == at(65)
    assert tournament.level_at(at(62))[0] == tournament.level_at(at(65))[0] == 6
    assert tournament.level_at(at(74))[0] == 6 and tournament.level_at(at(75))[0] == 7
    assert tournament.level_ends_at(5) == at(60)  # the level after the break is announced then
    assert tournament.level_ends_at(6) == at(75)
    assert (
        tournament.break_ends_at(at(127)) == at(130) and tournament.break_ends_at(at(130)) is None
    )


def test_tables_pause_between_hands_during_a_break_and_resume_after_it(
    make_user, time_machine
) -> None:
    tournament = started(
        registered(
            scheduled(seats_per_table=6, break_every_minutes=60, break_minutes=5),
            members(make_user, 4),
        )
    )
    table = tournament.tables.get()
    time_machine.move_to(tournament.started_at + timedelta(minutes=61))
    hand = table.hand_number
    while Table.objects.get(pk=table.pk).hand_number == hand:
        state = hand_state(Table.objects.get(pk=table.pk))
        if state is None or state.is_over:
            break
        step(Table.objects.get(pk=table.pk))

    table.refresh_from_db()
    assert table.hand_number == hand, "no hand dealt during the break"
    assert table.wake_at == table.next_hand_at == tournament.started_at + timedelta(minutes=65)
    time_machine.move_to(tournament.started_at + timedelta(minutes=65, seconds=1))
    assert table_services.table_wake(table_id=table.pk, seq=table.seq) == "hand_start"
    table.refresh_from_db()
    assert table.hand_number == hand + 1 and table.level == 6


# --- hand-for-hand ---------------------------------------------------------------


def _finish_passively(table_id: int) -> None:
    """Play the hand at the table to its end, everyone checking or folding."""
    for _ in range(50):
        table = Table.objects.get(pk=table_id)
        state = hand_state(table)
        if state is None or state.is_over:
            return
        seat = Seat.objects.get(table=table, number=state.actor)
        action = "check" if engine.legal_actions(state).can_check else "fold"
        table_services.hand_act(
            table_id=table.pk, user=seat.user, action=action, decision=decision_of(table)
        )
    raise AssertionError("the hand did not end")


def test_one_from_the_money_each_table_plays_a_hand_then_waits_for_the_others(
    make_user,
) -> None:
    # six players, five paid: the bubble from the first hand on
    tournament = started(
        registered(
            scheduled(seats_per_table=3, payout_percentages=[40, 25, 15, 10, 10]),
            members(make_user, 6),
        )
    )
    first, second = tournament.tables.order_by("pk")

    _finish_passively(first.pk)

    tournament.refresh_from_db()
    assert tournament.is_hand_for_hand and tournament.is_waiting_for_tables
    first.refresh_from_db()
    assert first.wake_at is None, "the first table waits for the second"
    waiting = selectors.table_snapshot(table_id=first.pk, user=None)["waiting_for"]
    assert waiting == "Hand for hand: waiting for every table to finish its hand"
    hand = first.hand_number

    _finish_passively(second.pk)

    tournament.refresh_from_db()
    assert tournament.is_hand_for_hand and not tournament.is_waiting_for_tables
    first.refresh_from_db()
    assert first.wake_at is not None and first.hand_number == hand  # both deal again
    assert table_services.table_wake(table_id=first.pk, seq=first.seq) == "hand_start"

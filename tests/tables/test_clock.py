"""The action clock: deadline, time bank, timeout, the wake task and the sweep."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables import services, tasks
from tables.models import Seat, Table
from tables.services import clock
from tests.tables.helpers import act, deal, fresh, friends_table, state_of

pytestmark = pytest.mark.django_db


def expire_the_clock(table: Table, seconds_ago: float = 1) -> None:
    """As if the deadline had passed (the wake task was lost or is late)."""
    past = timezone.now() - timedelta(seconds=seconds_ago)
    Table.objects.filter(pk=table.pk).update(deadline=past, wake_at=past)


def actor_seat(table: Table) -> Seat:
    return Seat.objects.get(table=table, number=state_of(table).actor)


def test_each_decision_gets_the_tables_action_seconds(alice, bob):
    table = friends_table(alice, bob, action_seconds=15)
    before = timezone.now()
    deal(table)
    table = fresh(table)
    assert 15 <= (table.deadline - before).total_seconds() < 20
    assert table.wake_at == table.deadline and not table.is_time_bank


def test_nothing_happens_before_the_deadline(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    table = fresh(table)
    assert services.hand_timeout(table_id=table.pk, seq=table.seq) is False
    assert fresh(table).seq == table.seq


def test_when_the_clock_runs_out_the_time_bank_takes_over(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    expire_the_clock(table)
    table = fresh(table)
    services.hand_timeout(table_id=table.pk, seq=table.seq)
    after = fresh(table)
    assert after.is_time_bank
    assert after.deadline == table.deadline + timedelta(seconds=30)
    assert state_of(table).actor == state_of(after).actor, "nobody was folded yet"


def test_acting_on_the_time_bank_keeps_what_is_left_of_it(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    seat = actor_seat(table)
    soon = timezone.now() + timedelta(seconds=12)
    Table.objects.filter(pk=table.pk).update(deadline=soon, wake_at=soon, is_time_bank=True)
    act(table, "call")
    seat.refresh_from_db()
    assert 8 < seat.time_bank <= 12


def test_when_clock_and_bank_run_out_the_player_is_folded_and_sits_out(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    Seat.objects.filter(table=table).update(time_bank=0)
    seat = actor_seat(table)
    expire_the_clock(table)
    services.hand_timeout(table_id=table.pk, seq=fresh(table).seq)
    seat.refresh_from_db()
    assert seat.is_sitting_out
    state = state_of(table)
    assert state.is_over and state.has_folded[seat.number]
    assert fresh(table).next_hand_at is None, "a hand needs two players who are not sitting out"


def test_a_timed_out_player_checks_when_checking_is_free(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    act(table, "call")  # the small blind completes; the big blind may check
    Seat.objects.filter(table=table).update(time_bank=0)
    big_blind = actor_seat(table)
    expire_the_clock(table)
    services.hand_timeout(table_id=table.pk, seq=fresh(table).seq)
    state = state_of(table)
    assert not state.has_folded[big_blind.number]
    assert state.street == "flop"
    # on the flop the big blind acts first and, sitting out, is checked at once
    assert state.actor != big_blind.number
    last = [e for e in state.events if e.kind == "player_acted"][-1]
    assert (last.seat, last.action) == (big_blind.number, "check")


def test_the_time_bank_grows_every_ten_hands_up_to_a_minute(alice, bob):
    table = friends_table(alice, bob)
    Seat.objects.filter(table=table).update(time_bank=57)
    for hand in range(20):
        deal(table)
        act(table, "fold")
        banks = set(Seat.objects.filter(table=table).values_list("time_bank", flat=True))
        assert banks == ({57} if hand < 9 else {60})


def test_the_sweep_applies_a_deadline_whose_task_was_lost(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    Seat.objects.filter(table=table).update(time_bank=0)
    seat = actor_seat(table)
    expire_the_clock(table)

    assert tasks.sweep() == 1

    seat.refresh_from_db()
    assert seat.is_sitting_out and state_of(table).is_over
    assert tasks.sweep() == 0, "nothing else is due"


def test_the_sweep_deals_the_next_hand_when_it_is_due(alice, bob):
    table = friends_table(alice, bob)
    assert fresh(table).next_hand_at is not None
    assert tasks.sweep() == 1
    table = fresh(table)
    assert table.hand_number == 1 and not state_of(table).is_over


def test_a_wake_task_for_an_old_seq_does_nothing(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    expire_the_clock(table)
    table = fresh(table)
    assert tasks.wake(table.pk, table.seq - 1) is None
    assert fresh(table).seq == table.seq
    assert tasks.wake(table.pk, table.seq) == "hand_timeout"


def test_beat_runs_the_sweep_every_few_seconds():
    from django.conf import settings

    sweeps = [
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "tables.tasks.sweep"
    ]
    assert len(sweeps) == 1 and sweeps[0]["schedule"] <= 3


def test_a_deadline_missed_while_the_server_was_down_gets_a_fresh_clock(alice, bob):
    table = friends_table(alice, bob, action_seconds=20)
    deal(table)
    seat = actor_seat(table)
    bank = seat.time_bank
    expire_the_clock(table, seconds_ago=45)  # a 45-second outage

    assert tasks.sweep() == 1  # the first sweep after the restart

    seat.refresh_from_db()
    table = fresh(table)
    assert not seat.is_sitting_out and not state_of(table).is_over, "not folded"
    assert state_of(table).actor == seat.number
    assert 19 <= (table.deadline - timezone.now()).total_seconds() <= 20
    assert not table.is_time_bank and seat.time_bank == bank, "the time bank is untouched"


def test_a_deadline_just_passed_still_runs_into_the_time_bank(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    expire_the_clock(table, seconds_ago=2)
    assert tasks.sweep() == 1
    assert fresh(table).is_time_bank


def test_a_fast_table_wakes_its_bots_and_deals_again_sooner_never_later(settings):
    settings.TABLES_BOT_DELAY_SECONDS = (0.8, 2.0)
    settings.TABLES_NEXT_HAND_SECONDS, settings.TABLES_SHOWDOWN_SECONDS = 3.0, 5.0
    fast, normal = Table(pace=Table.Pace.FAST), Table()
    assert all(0.2 <= clock.bot_delay(fast) <= 0.4 for _ in range(20))
    assert all(0.8 <= clock.bot_delay(normal) <= 2.0 for _ in range(20))
    assert clock.between_hands(fast) == (1.0, 1.5)
    assert clock.between_hands(normal) == (3.0, 5.0)
    # Pauses set shorter than the fast pace's (the tests' own) stay as short.
    settings.TABLES_BOT_DELAY_SECONDS = (0.0, 0.0)
    settings.TABLES_NEXT_HAND_SECONDS = settings.TABLES_SHOWDOWN_SECONDS = 0.0
    assert clock.bot_delay(fast) == 0.0
    assert clock.between_hands(fast) == (0.0, 0.0)


def test_the_practice_form_offers_the_pace_of_the_last_practice_table(client, alice):
    client.force_login(alice)
    page = client.get("/tables/practice/").content.decode()
    assert '<option value="normal" selected>' in page
    client.post("/tables/practice/", {"bots": 2, "game": "nlhe", "pace": "fast"})
    assert Table.objects.get(owner=alice, kind="practice").pace == Table.Pace.FAST
    page = client.get("/tables/practice/").content.decode()
    assert '<option value="fast" selected>' in page

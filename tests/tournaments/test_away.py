"""Rule 32: at a tournament's table a player who is not there costs the others a short
grace, once; from then on they are away, blinded off and folded at once until back."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

import engine
from tables import selectors
from tables import services as table_services
from tables.models import Seat, Table
from tables.play import hand_state
from tables.services import presence
from tests.tables.helpers import decision_of
from tests.tournaments.helpers import members, register, sng, table_of
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

GRACE = 5.0  # TOURNAMENTS_DISCONNECTED_GRACE_SECONDS, as config/settings.py sets it
CLOCK = 20  # TOURNAMENTS_ACTION_SECONDS
BANK = 30.0  # TABLES_TIME_BANK_SECONDS


@pytest.fixture
def started(make_user, settings) -> Tournament:
    settings.TOURNAMENTS_DISCONNECTED_GRACE_SECONDS = GRACE
    settings.TOURNAMENTS_ACTION_SECONDS = CLOCK
    settings.TABLES_TIME_BANK_SECONDS = BANK
    return register(sng(structure="regular", buy_in=0), members(make_user, 6))


def actor_seat(tournament: Tournament) -> Seat:
    table = table_of(tournament)
    return Seat.objects.get(table=table, number=hand_state(table).actor)


def seconds_on_the_clock(tournament: Tournament) -> float:
    table = table_of(tournament)
    assert table.deadline is not None
    return (table.deadline - timezone.now()).total_seconds()


def connect(table: Table, user) -> str:
    """What opening the table's page does: the socket takes a presence lease."""
    channel = f"test-channel-{user.pk}"
    presence.seat_presence(
        table_id=table.pk, user=user, channel_name=channel, is_open=True, holder="web-1"
    )
    return channel


def run_out_the_clock(tournament: Tournament) -> None:
    """The wake-up at the deadline, as the worker applies it."""
    deadline = table_of(tournament).deadline
    with time_machine.travel(deadline + timedelta(seconds=0.5), tick=False):
        table = table_of(tournament)
        assert table_services.table_wake(table_id=table.pk, seq=table.seq) == "hand_timeout"


def test_every_player_is_shown_offline_until_they_open_the_table(started):
    table = table_of(started)
    view = selectors.table_snapshot(table_id=table.pk, user=None)

    assert all(seat["disconnected_since"] for seat in view["seats"] if seat["occupied"])

    someone = Seat.objects.filter(table=table).first()
    connect(table, someone.user)
    view = selectors.table_snapshot(table_id=table.pk, user=None)
    assert view["seats"][someone.number]["disconnected_since"] is None


def test_a_player_who_never_opened_the_table_has_a_short_grace_not_the_clock(started):
    assert 0 < seconds_on_the_clock(started) <= GRACE
    assert not table_of(started).is_time_bank


def test_when_the_grace_runs_out_the_player_is_away_and_their_time_bank_untouched(started):
    absent = actor_seat(started)

    run_out_the_clock(started)

    absent.refresh_from_db()
    assert absent.is_sitting_out and absent.has_timed_out, "marked away"
    assert absent.time_bank == BANK, "no bank spent waiting for nobody"
    assert actor_seat(started).pk != absent.pk, "the next player is to act"
    view = selectors.table_snapshot(table_id=table_of(started).pk, user=absent.user)
    assert view["seats"][absent.number]["has_timed_out"]


def test_a_connected_player_has_the_whole_clock_then_their_time_bank(started):
    table = table_of(started)
    for seat in Seat.objects.filter(table=table):
        connect(table, seat.user)
    first = actor_seat(started)  # dealt before anyone was there: a grace
    table_services.hand_act(
        table_id=table.pk, user=first.user, action="fold", decision=decision_of(table)
    )
    there = actor_seat(started)

    assert seconds_on_the_clock(started) > CLOCK - 1
    run_out_the_clock(started)

    there.refresh_from_db()
    assert not there.is_sitting_out, "still deciding, on their time bank"
    assert table_of(started).is_time_bank
    assert actor_seat(started).pk == there.pk


def test_a_player_whose_page_closes_on_their_turn_gets_no_time_bank(started):
    table = table_of(started)
    channels = {
        seat.user_id: connect(table, seat.user) for seat in Seat.objects.filter(table=table)
    }
    first = actor_seat(started)
    table_services.hand_act(
        table_id=table.pk, user=first.user, action="fold", decision=decision_of(table)
    )
    leaving = actor_seat(started)
    presence.seat_presence(
        table_id=table.pk,
        user=leaving.user,
        channel_name=channels[leaving.user_id],
        is_open=False,
    )

    run_out_the_clock(started)

    leaving.refresh_from_db()
    assert leaving.is_sitting_out and leaving.has_timed_out
    assert leaving.time_bank == BANK


def fold_others_until(tournament: Tournament, user) -> bool:
    """Everyone else folds until the hand is over (False) or it is ``user``'s turn (True)."""
    for _ in range(20):
        table = table_of(tournament)
        state = hand_state(table)
        if state.is_over:
            return False
        mover = actor_seat(tournament)
        if mover.user_id == user.pk:
            return True
        table_services.hand_act(
            table_id=table.pk, user=mover.user, action="fold", decision=decision_of(table)
        )
    raise AssertionError("the hand did not end")


def next_hand(tournament: Tournament) -> None:
    table = table_of(tournament)
    table_services.hand_start(table_id=table.pk, seq=table.seq)


def test_an_away_player_posts_their_blinds_and_is_folded_at_once_until_back(started):
    table = table_of(started)
    away = actor_seat(started)
    for seat in Seat.objects.filter(table=table).exclude(pk=away.pk):
        connect(table, seat.user)
    run_out_the_clock(started)  # their grace: they never came
    blinds = []
    for _ in range(7):  # more than a round of hands
        assert not fold_others_until(started, away.user), "an away player is never waited for"
        state = hand_state(table_of(started))
        assert state.is_dealt_in[away.number]
        blinds += [
            e.blind
            for e in state.events
            if isinstance(e, engine.BlindPosted) and e.seat == away.number
        ]
        next_hand(started)
    assert {"small", "big"} <= set(blinds), "away, they still post the blinds"

    connect(table, away.user)  # their page opens, and they press "I'm back"
    table_services.seat_sit_in(table_id=table.pk, user=away.user)
    for _ in range(7):
        if fold_others_until(started, away.user):
            break
        next_hand(started)
    else:
        raise AssertionError("back, the player never had a turn")
    assert seconds_on_the_clock(started) > CLOCK - 1, "back and there: the whole clock"

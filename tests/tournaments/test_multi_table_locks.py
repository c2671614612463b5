"""What a hand's end locks at a multi-table tournament's other tables, on PostgreSQL.

A hand that calls for no break, move or final draw (most hands) reads the other
tables without locking them (tournaments/services/multi_table.py), so a table whose
row is held elsewhere does not hold up the end of every hand of the tournament.
Only PostgreSQL has row locks; SQLite writes one transaction at a time.
"""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection, connections, transaction

from tables import services as table_services
from tables.models import Seat, Table
from tables.play import hand_state
from tests.support.tournaments import registered, scheduled, sizes, started
from tests.tables.helpers import decision_of
from tests.tournaments.helpers import members
from tournaments.models import Tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL only"),
]


def fold_to_the_end(table: Table) -> None:
    """Everyone folds in turn until the hand is over (no chips change hands but the blinds)."""
    while (state := hand_state(Table.objects.get(pk=table.pk))) and not state.is_over:
        seat = Seat.objects.get(table=table, number=state.actor)
        table_services.hand_act(
            table_id=table.pk, user=seat.user, action="fold", decision=decision_of(table)
        )


def held(table: Table, until: threading.Event) -> threading.Thread:
    """Another connection takes ``table``'s row lock (as a socket's presence does, without
    the tournament's) and keeps it until ``until`` is set."""
    taken = threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                list(Table.objects.select_for_update().filter(pk=table.pk))
                taken.set()
                until.wait(30)
        finally:
            taken.set()
            connections.close_all()

    thread = threading.Thread(target=hold)
    thread.start()
    assert taken.wait(10)
    return thread


def test_a_hand_that_moves_nobody_ends_without_waiting_for_the_other_tables(make_user):
    tournament = started(registered(scheduled(seats_per_table=6), members(make_user, 12)))
    first, second = Table.objects.filter(tournament=tournament).order_by("pk")
    assert sorted(sizes(tournament).values()) == [6, 6]
    release = threading.Event()
    holder = held(second, release)
    try:
        with connection.cursor() as cursor:  # waiting on a lock fails instead of hanging
            cursor.execute("SET lock_timeout = '2s'")
        fold_to_the_end(first)
    except OperationalError as error:
        pytest.fail(f"the hand's end waited for the other table's lock: {error}")
    finally:
        release.set()
        holder.join(10)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 0")
    assert Table.objects.get(pk=first.pk).next_hand_at is not None  # the next one is due
    assert sorted(sizes(Tournament.objects.get(pk=tournament.pk)).values()) == [6, 6]

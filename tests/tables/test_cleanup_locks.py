"""The load tests delete what they made while the server may still be at work: on
PostgreSQL, deleting a table waits for a hand's all-in EV instead of deadlocking with it.
Only PostgreSQL has row locks; SQLite writes one transaction at a time."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from tables.loadtest.driver import Setup, clean_up
from tables.models import Hand, HandPlayer, Table
from tests.support.locks import someone_waits_for_a_lock
from tests.tables.helpers import act, deal, friends_table, in_threads

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL only"),
]


def test_deleting_a_table_waits_for_the_all_in_ev_of_its_hand(alice, bob):
    table = friends_table(alice, bob)
    deal(table)
    act(table, "fold")
    hand = Hand.objects.get(table=table)
    holds_the_hand, go_on = threading.Event(), threading.Event()

    def all_in_ev() -> None:
        # In tables/history/allin_ev.py's order: the hand's row, then its players'.
        with transaction.atomic():
            list(Hand.objects.select_for_update().filter(pk=hand.pk))
            holds_the_hand.set()
            go_on.wait(10)
            HandPlayer.objects.filter(hand=hand).update(allin_ev=1.0, is_allin_ev=True)

    def delete() -> None:
        assert holds_the_hand.wait(10)
        clean_up(Setup(table_ids=[table.pk]))

    def let_go_once_the_deletion_waits() -> None:
        assert holds_the_hand.wait(10)
        deadline = time.monotonic() + 10
        while not someone_waits_for_a_lock():  # the deletion has reached the held hand
            assert time.monotonic() < deadline, "the deletion never waited"
            time.sleep(0.05)
        go_on.set()

    errors = in_threads([all_in_ev, delete, let_go_once_the_deletion_waits], timeout=30)

    assert errors == [], errors  # the old order: "deadlock detected" for one of them
    assert not Table.objects.filter(pk=table.pk).exists()

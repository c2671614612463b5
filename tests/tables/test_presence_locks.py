"""Presence under PostgreSQL's row locks (tables/services/presence.py): a socket
closing while a table service deletes the seat must wait for it, not deadlock with it;
the sweep must not drop the leases of a process whose renewal commits while it waits.

The first was found in make test: the load test deleting its tables while a flooding
client's socket closed. Only PostgreSQL has row locks; SQLite writes one transaction
at a time.
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, connections, transaction

from tables.models import PresenceHolder, PresenceLease, Seat, Table
from tables.services import presence
from tests.support import wait_for
from tests.support.locks import someone_waits_for_a_lock
from tests.tables.helpers import friends_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL only"),
]


def test_a_socket_closing_while_its_seat_is_deleted_waits_instead_of_deadlocking(alice, bob):
    table = friends_table(alice, bob)
    presence.seat_presence(
        table_id=table.pk, user=bob, channel_name="bob-tab", is_open=True, holder="web-1"
    )
    seat = Seat.objects.get(table=table, user=bob)
    assert PresenceLease.objects.filter(seat=seat).exists()
    leases_gone = threading.Event()
    errors: list[BaseException] = []

    def delete_the_seat() -> None:
        # What a table service does when a seat goes (play.commit): the table locked,
        # then Django's cascade deletes the seat's leases before the seat itself. The
        # pause holds the deleted lease rows while the socket closes.
        try:
            with transaction.atomic():
                list(Table.objects.select_for_update().filter(pk=table.pk))
                PresenceLease.objects.filter(seat_id=seat.pk).delete()
                leases_gone.set()
                time.sleep(1.5)
                Seat.objects.filter(pk=seat.pk).delete()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            leases_gone.set()
            connections.close_all()

    def close_the_socket() -> None:
        leases_gone.wait(10)
        try:
            presence.seat_presence(
                table_id=table.pk, user=bob, channel_name="bob-tab", is_open=False
            )
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=delete_the_seat), threading.Thread(target=close_the_socket)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert not errors, errors  # PostgreSQL names a deadlock by failing one of them
    assert not Seat.objects.filter(pk=seat.pk).exists()
    assert Seat.objects.filter(table=table, user=alice).exists()


def test_a_renewal_that_commits_while_the_sweep_waits_keeps_the_leases_of_its_process(alice, bob):
    table = friends_table(alice, bob)
    presence.seat_presence(
        table_id=table.pk, user=bob, channel_name="bob-tab", is_open=True, holder="web-1"
    )
    taken = PresenceHolder.objects.get().renewed_at
    # As of then the process looks dead: not renewed for more than a lease time.
    swept = taken + timedelta(seconds=presence.lease_seconds() + 10)
    renewing, commit = threading.Event(), threading.Event()
    errors: list[BaseException] = []
    away: list[int] = []

    def renew_slowly() -> None:
        # The process's renewal, written but not yet committed when the sweep reads.
        try:
            with transaction.atomic():
                PresenceHolder.objects.filter(name="web-1").update(renewed_at=swept)
                renewing.set()
                commit.wait(10)
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            renewing.set()
            connections.close_all()

    def sweep() -> None:
        try:
            away.append(presence.presence_sweep(now=swept))
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            connections.close_all()

    renewal = threading.Thread(target=renew_slowly)
    renewal.start()
    renewing.wait(10)
    sweeping = threading.Thread(target=sweep)
    sweeping.start()
    try:
        wait_for(someone_waits_for_a_lock, seconds=10)  # the sweep, for the holder's row
    finally:
        commit.set()
        renewal.join(30)
        sweeping.join(30)

    assert not errors, errors
    assert away == [0]
    assert PresenceLease.objects.filter(channel_name="bob-tab").exists()
    assert Seat.objects.get(table=table, user=bob).disconnected_at is None
    assert PresenceHolder.objects.filter(name="web-1").exists()

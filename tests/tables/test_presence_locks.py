"""Presence and seat deletion on PostgreSQL: a socket closing while a table service
deletes the seat must wait for it, not deadlock with it (tables/services/presence.py).

Found in make test: the load test deleting its tables while a flooding client's socket
closed. Only PostgreSQL has row locks; SQLite writes one transaction at a time.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections, transaction

from tables.models import PresenceLease, Seat, Table
from tables.services import presence
from tests.tables.helpers import friends_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL only"),
]


def test_a_socket_closing_while_its_seat_is_deleted_waits_instead_of_deadlocking(alice, bob):
    table = friends_table(alice, bob)
    presence.seat_presence(table_id=table.pk, user=bob, channel_name="bob-tab", is_open=True)
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

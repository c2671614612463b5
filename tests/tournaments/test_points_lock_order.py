"""Paying several members at once beside an admin's grant to the same members, on
PostgreSQL: whatever order a tournament pays in (prizes by place, refunds by entry),
it takes their accounts in user id order first, as a grant does, so the two wait for
each other instead of deadlocking (accounts/points.py, ``accounts_locked``).

Each test lets a grant to two members take the first one's account and hold it, runs
the tournament's payment until it waits, then lets the grant go on to the second
member. Taken in the opposite order, PostgreSQL finds a deadlock and fails one of
them. Only PostgreSQL has row locks; SQLite writes one transaction at a time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.db.models import Sum

from accounts import points
from accounts.models import PointsAccount, PointsEntry
from tests.support.locks import someone_waits_for_a_lock
from tests.support.tournaments import registered, scheduled, started
from tests.tournaments.helpers import members, moved_for, register, sng
from tests.tournaments.test_cancel import cancel, entries_of, knock_out
from tournaments.models import Tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL only"),
]

GRANT = 250


def both_granted_and_every_balance_its_ledger() -> None:
    assert PointsEntry.objects.filter(reason=PointsEntry.Reason.GRANT).count() == 2
    for account in PointsAccount.objects.all():
        rows = PointsEntry.objects.filter(user=account.user, scope=account.scope)
        assert account.balance == rows.aggregate(total=Sum("amount"))["total"]


def beside_a_grant(first: Any, second: Any, payment: Callable[[], None]) -> list[BaseException]:
    """A grant to ``first`` then ``second`` holds ``first``'s account while ``payment``
    runs in a thread of its own; once the payment waits, the grant goes on. The
    errors either raised."""
    errors: list[BaseException] = []
    granted_first, go_on = threading.Event(), threading.Event()

    def grant() -> None:
        try:
            with transaction.atomic():
                points.points_move(user=first, amount=GRANT, reason=PointsEntry.Reason.GRANT)
                granted_first.set()
                go_on.wait(30)
                points.points_move(user=second, amount=GRANT, reason=PointsEntry.Reason.GRANT)
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            granted_first.set()
            connections.close_all()

    def pay() -> None:
        try:
            payment()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            connections.close_all()

    granter = threading.Thread(target=grant)
    granter.start()
    assert granted_first.wait(10)
    payer = threading.Thread(target=pay)
    payer.start()
    deadline = time.monotonic() + 10
    while not someone_waits_for_a_lock():  # the payment, for the first member's account
        assert time.monotonic() < deadline, "the payment never waited for the grant"
        time.sleep(0.02)
    go_on.set()
    for thread in (granter, payer):
        thread.join(30)
        assert not thread.is_alive(), "a thread hung"
    return errors


def test_prizes_paid_second_place_first_do_not_deadlock_with_a_grant(make_user):
    tournament = started(
        registered(scheduled(buy_in=100, seats_per_table=6), members(make_user, 6))
    )
    entries = entries_of(tournament)
    winner, runner_up = entries[0], entries[1]  # the winner's member has the lower id
    assert winner.user_id < runner_up.user_id
    for entry in entries[2:]:
        knock_out(tournament, entry)

    errors = beside_a_grant(winner.user, runner_up.user, lambda: knock_out(tournament, runner_up))

    assert errors == []
    runner_up.refresh_from_db()
    assert runner_up.place == 2 and runner_up.prize > 0  # paid before the winner
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    assert moved_for(tournament) == 0  # the whole pool paid, once
    both_granted_and_every_balance_its_ledger()


def test_refunds_paid_in_entry_order_do_not_deadlock_with_a_grant(make_user):
    first, second = members(make_user, 2)
    others = members(make_user, 3, prefix="other")
    tournament = register(sng(buy_in=100), [second, first, *others])  # refunded in this order

    errors = beside_a_grant(first, second, lambda: cancel(tournament))

    assert errors == []
    assert Tournament.objects.get(pk=tournament.pk).status == "cancelled"
    assert moved_for(tournament) == 0
    assert points.points_balance(user=first) == points.points_balance(user=second)
    both_granted_and_every_balance_its_ledger()

"""Presence leases held by server processes (tables/services/presence.py): a process
renews itself, not each lease; a dead one's players go away; a renewal puts its
leases right where they and its sockets disagree; stale processes are forgotten."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables import selectors, tasks
from tables.models import PresenceHolder, PresenceLease, Table
from tables.services import presence
from tables.snapshot import iso
from tests.tables.helpers import friends_table

pytestmark = pytest.mark.django_db(transaction=True)

PROCESS = "web-1:4242:0a1b2c3d"  # a server process's holder name (tables/lease_renewals.py)


def away_since(table: Table) -> list[str | None]:
    """Each seat's ``disconnected_since`` as everyone at the table sees it."""
    seats = selectors.table_snapshot(table_id=table.pk, user=None)["seats"]
    return [seat["disconnected_since"] for seat in seats if seat["occupied"]]


def open_sockets(table: Table, users, holder: str = PROCESS, tabs: int = 1) -> dict:
    """``tabs`` sockets of each of ``users`` opened on the process ``holder``: the
    sockets as that process lists them (channel name -> table id and user)."""
    sockets = {
        f"{holder}!{user.username}-{tab}": (table.pk, user) for user in users for tab in range(tabs)
    }
    for name, (table_id, user) in sockets.items():
        presence.seat_presence(
            table_id=table_id, user=user, channel_name=name, is_open=True, holder=holder
        )
    return sockets


def lease_time() -> timedelta:
    return timedelta(seconds=presence.lease_seconds())


def renewal_period() -> timedelta:
    return timedelta(seconds=presence.renew_every_seconds())


def test_a_player_whose_server_died_is_away_since_it_last_renewed_their_socket(alice, bob):
    table = friends_table(alice, bob)
    opened = timezone.now()
    with time_machine.travel(opened, tick=False):
        open_sockets(table, [bob], holder="dead-server")
    with time_machine.travel(opened + lease_time() / 2, tick=False):
        tasks.sweep()
        assert away_since(table) == [None, None], "bob within his lease; alice never came"
    with time_machine.travel(opened + lease_time() + timedelta(seconds=1), tick=False):
        tasks.sweep()
    assert away_since(table) == [None, iso(opened)]
    assert not PresenceLease.objects.exists()


def test_the_players_of_a_dead_process_are_away_since_its_last_renewal_not_since_they_came(
    alice, bob, carol
):
    table = friends_table(alice, bob, carol)
    opened = timezone.now()
    with time_machine.travel(opened, tick=False):
        dead = open_sockets(table, [bob, carol], holder="dead-server")
        live = open_sockets(table, [bob], holder="live-server")  # bob's other tab
    last_renewed = opened + renewal_period() * 2
    with time_machine.travel(last_renewed, tick=False):
        presence.presences_renew(holder="dead-server", sockets=dead)
    with time_machine.travel(opened + lease_time() + timedelta(seconds=1), tick=False):
        presence.presences_renew(holder="live-server", sockets=live)
        tasks.sweep()
        assert away_since(table) == [None, None, None], "its last renewal is within a lease"
    with time_machine.travel(last_renewed + lease_time() + timedelta(seconds=1), tick=False):
        tasks.sweep()
    assert away_since(table) == [None, None, iso(last_renewed)], "bob's other tab is open"
    assert list(PresenceLease.objects.values_list("channel_name", flat=True)) == [
        "live-server!bob-0"
    ]


def test_a_lease_dropped_while_its_process_stalled_is_taken_again_at_its_renewal(alice, bob):
    table = friends_table(alice, bob)
    opened = timezone.now()
    with time_machine.travel(opened, tick=False):
        sockets = open_sockets(table, [alice, bob])
    with time_machine.travel(opened + timedelta(hours=1), tick=False):
        tasks.sweep()  # the process has not renewed for an hour: taken for dead
        assert away_since(table) == [iso(opened), iso(opened)]
        assert not PresenceHolder.objects.exists(), "forgotten, with no lease left"
        presence.presences_renew(holder=PROCESS, sockets=sockets)  # it was only slow
        assert away_since(table) == [None, None]
        assert PresenceLease.objects.count() == 2
        assert PresenceHolder.objects.get(name=PROCESS).renewed_at == timezone.now()


def test_a_lease_whose_socket_its_process_no_longer_holds_is_given_back(alice, bob):
    table = friends_table(alice, bob)
    sockets = open_sockets(table, [alice, bob])
    # Bob's tab closed, and giving its lease back failed (a database blink): the
    # process no longer lists the socket, but the lease is still there.
    del sockets[f"{PROCESS}!bob-0"]
    assert away_since(table) == [None, None]
    closed_by = timezone.now() + renewal_period()
    with time_machine.travel(closed_by, tick=False):
        presence.presences_renew(holder=PROCESS, sockets=sockets)
    assert away_since(table) == [None, iso(closed_by)]
    assert list(PresenceLease.objects.values_list("channel_name", flat=True)) == [
        f"{PROCESS}!alice-0"
    ]


def test_a_missing_lease_and_a_leftover_one_that_cancel_out_are_put_right_by_a_full_check(
    alice, bob, carol
):
    table = friends_table(alice, bob, carol)
    sockets = open_sockets(table, [alice, bob, carol])
    closed = timezone.now()
    with time_machine.travel(closed, tick=False):
        presence.seat_presence(
            table_id=table.pk, user=carol, channel_name=f"{PROCESS}!carol-0", is_open=False
        )
    del sockets[f"{PROCESS}!carol-0"]
    # Then bob's tab closed without giving its lease back, and carol opened a tab
    # that did not take one (database blinks, both): two sockets, two leases, not
    # the same ones.
    del sockets[f"{PROCESS}!bob-0"]
    sockets[f"{PROCESS}!carol-1"] = (table.pk, carol)
    presence.presences_renew(holder=PROCESS, sockets=sockets)
    assert away_since(table) == [None, None, iso(closed)], "a count cannot tell"
    checked = timezone.now()
    with time_machine.travel(checked, tick=False):
        presence.presences_renew(holder=PROCESS, sockets=sockets, is_full_check=True)
    assert away_since(table) == [None, iso(checked), None]
    assert set(PresenceLease.objects.values_list("channel_name", flat=True)) == set(sockets)


@pytest.mark.parametrize("tabs", [1, 17])  # 3 sockets, then 51
def test_a_renewal_runs_two_statements_however_many_sockets_and_keeps_them_alive(
    alice, bob, carol, tabs
):
    table = friends_table(alice, bob, carol)
    opened = timezone.now()
    with time_machine.travel(opened, tick=False):
        sockets = open_sockets(table, [alice, bob, carol], tabs=tabs)
    renewed = opened + renewal_period()
    with time_machine.travel(renewed, tick=False), CaptureQueriesContext(connection) as queries:
        presence.presences_renew(holder=PROCESS, sockets=sockets)
    statements = [query["sql"].split()[0] for query in queries]
    assert statements == ["UPDATE", "SELECT"], queries
    assert "COUNT(" in queries[1]["sql"]
    with time_machine.travel(opened + lease_time() + timedelta(seconds=1), tick=False):
        tasks.sweep()  # a lease time after they were taken, within one of the renewal
    assert away_since(table) == [None, None, None]
    assert PresenceLease.objects.count() == 3 * tabs


def test_the_sweep_forgets_a_stale_process_once_it_holds_no_lease(alice, bob):
    table = friends_table(alice, bob)
    opened = timezone.now()
    with time_machine.travel(opened, tick=False):
        open_sockets(table, [alice], holder="dead-server")
        open_sockets(table, [bob], holder="idle-server")
        presence.seat_presence(
            table_id=table.pk, user=bob, channel_name="idle-server!bob-0", is_open=False
        )  # its one socket closed: a holder with no lease, not renewed any more
        open_sockets(table, [bob], holder="live-server")
    with time_machine.travel(opened + lease_time() / 2, tick=False):
        presence.presences_renew(
            holder="live-server", sockets={"live-server!bob-0": (table.pk, bob)}
        )
        tasks.sweep()
        assert PresenceHolder.objects.count() == 3, "nobody is stale yet"
    with time_machine.travel(opened + lease_time() + timedelta(seconds=1), tick=False):
        tasks.sweep()
    names = list(PresenceHolder.objects.values_list("name", flat=True))
    assert names == ["live-server"], "the dead and the idle process are forgotten"
    assert away_since(table) == [iso(opened), None]

"""Presence leases taken before leases had holders do not get stuck: the sweep still
finds them stale within a lease time and shows their players away."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from tables.models import PresenceHolder, PresenceLease, Seat
from tables.services import presence
from tests.tables.helpers import friends_table

BEFORE = [("tables", "0028_players_cut")]
AFTER = [("tables", "0029_presence_holders")]


@pytest.mark.django_db(transaction=True)
def test_leases_from_before_holders_lapse_a_lease_time_after_the_oldest(alice, bob) -> None:
    table = friends_table(alice, bob)
    seats = dict(Seat.objects.filter(table=table).values_list("user_id", "pk"))
    oldest = timezone.now() - timedelta(seconds=5)
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(BEFORE)
        old = executor.loader.project_state(BEFORE).apps
        leases = old.get_model("tables", "PresenceLease").objects
        leases.create(seat_id=seats[alice.pk], channel_name="old!alice", renewed_at=oldest)
        later = oldest + timedelta(seconds=3)
        leases.create(seat_id=seats[bob.pk], channel_name="old!bob", renewed_at=later)
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    holder = PresenceHolder.objects.get()
    assert holder.renewed_at == oldest
    assert set(PresenceLease.objects.values_list("holder", flat=True)) == {holder.pk}
    lease = timedelta(seconds=presence.lease_seconds())
    assert presence.presence_sweep(now=oldest + lease - timedelta(seconds=1)) == 0
    assert presence.presence_sweep(now=oldest + lease + timedelta(seconds=1)) == 2
    assert set(Seat.objects.filter(table=table).values_list("disconnected_at", flat=True)) == {
        oldest
    }
    assert not PresenceLease.objects.exists() and not PresenceHolder.objects.exists()

"""Timed work survives the loss of a node. Every node runs a Celery worker and a
Celery beat (docs/deploy.md), and every periodic job is safe to run on each;
so when one node is killed (-9, its worker's pool processes too), the other's
sweep applies what the dead worker held and deals what falls due, each within
the sweep's bound: the time after which /healthz calls a wake-up overdue."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from tables.selectors import SWEEP_GRACE_SECONDS
from tests.support import wait_for
from tests.support.celery_nodes import (
    Node,
    control_app,
    due_now,
    held_by,
    start_node,
    wait_until_ready,
)
from tests.support.private_services import private_redis
from tests.tables.helpers import fresh, friends_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.fault]


def lateness(moment: Any) -> float:
    return (timezone.now() - moment).total_seconds()


def test_the_surviving_node_applies_the_dead_nodes_clock_and_deals_in_time(
    tmp_path: Any, alice: Any, bob: Any, carol: Any, make_user: Any, settings: Any
) -> None:
    settings.TABLES_NEXT_HAND_SECONDS = 3600  # no table is due until the test says
    bound = settings.TABLES_SWEEP_SECONDS + SWEEP_GRACE_SECONDS
    database = str(connection.settings_dict["NAME"])
    with private_redis(tmp_path / "redis") as server:
        app = control_app(server)
        nodes = [
            start_node(name, redis_url=server.url, database_name=database, workdir=tmp_path / name)
            for name in ("one", "two")
        ]
        try:
            for node in nodes:
                wait_until_ready(node, app)
            playing = friends_table(alice, bob, action_seconds=5)
            due_now(playing)
            wait_for(lambda: fresh(playing).hand_number == 1, seconds=30)

            # The node whose worker holds the player's clock (its wake task, waiting
            # for its countdown) is the one lost, beat and all.
            def holder() -> Node | None:
                clock = [playing.pk, fresh(playing).seq]  # then the task's token
                for node in nodes:
                    if any(name == "tables.tasks.wake" and args[:2] == clock
                           for name, args in held_by(node, app)):  # fmt: skip
                        return node
                return None

            wait_for(lambda: holder() is not None, seconds=10)
            lost = holder()
            assert lost is not None
            lost.kill()
            survivor = next(node for node in nodes if node is not lost)
            seq, deadline = fresh(playing).seq, fresh(playing).deadline
            assert deadline is not None and deadline > timezone.now(), "killed before it fell due"

            waiting = friends_table(carol, make_user("dave"))
            due_now(waiting)
            asked = time.monotonic()
            dealt_after = clock_late_by = None
            while (dealt_after is None or clock_late_by is None) and time.monotonic() < asked + 30:
                if dealt_after is None and fresh(waiting).hand_number == 1:
                    dealt_after = time.monotonic() - asked
                if clock_late_by is None and fresh(playing).seq != seq:
                    clock_late_by = lateness(deadline)
                time.sleep(0.05)

            print(f"dealt after {dealt_after} s; the clock applied {clock_late_by} s late")
            assert survivor.is_alive
            assert dealt_after is not None, "the table due was never dealt"
            assert dealt_after <= bound, f"the table due was dealt {dealt_after:.1f} s late"
            assert clock_late_by is not None, "the dead worker's clock was never applied"
            assert 0 <= clock_late_by <= bound, f"the clock was applied {clock_late_by:.1f} s late"
        finally:
            for node in nodes:
                node.kill()

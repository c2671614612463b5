"""A Celery worker rides out Redis restarts: the server killed with -9, down for
one to four seconds, started again, four times over, while the worker holds a
wake-up for later. The worker stays up and timed work goes on afterwards
(config/adapters/celery_consumer.py says why it exited before)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.db import connection

from tests.support import wait_for
from tests.support.celery_nodes import (
    control_app,
    due_now,
    held_by,
    start_node,
    wait_until_ready,
)
from tests.support.private_services import private_redis
from tests.tables.helpers import fresh, friends_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.fault]

DOWNTIMES = (1.0, 3.3, 2.0, 4.0)  # seconds; the drill that found the fault saw 3.3


def test_a_worker_holding_wake_ups_rides_out_redis_restarts_and_deals_after(
    tmp_path: Any, make_user: Any, settings: Any
) -> None:
    settings.TABLES_NEXT_HAND_SECONDS = 3600  # no table is due until the test says
    database = str(connection.settings_dict["NAME"])
    with private_redis(tmp_path / "redis") as server:
        app = control_app(server)
        node = start_node(
            "restarts", redis_url=server.url, database_name=database, workdir=tmp_path / "node"
        )
        try:
            wait_until_ready(node, app)
            playing = friends_table(make_user("alice"), make_user("bob"))
            due_now(playing)
            wait_for(lambda: fresh(playing).hand_number == 1, seconds=30)

            for down in DOWNTIMES:
                # A wake-up for later (a stale one: it changes nothing when it runs),
                # held by the worker when Redis goes, as a player's clock would be.
                app.send_task("tables.tasks.wake", (playing.pk, -1), countdown=120)
                wait_for(lambda: ("tables.tasks.wake", [playing.pk, -1]) in held_by(node, app))
                server.kill()
                time.sleep(down)
                server.start()
                assert node.worker.poll() is None, (
                    f"the worker exited when Redis was down {down} s:\n{node.log()[-4000:]}"
                )
                wait_until_ready(node, app)

            later = friends_table(make_user("carol"), make_user("dave"))
            due_now(later)
            wait_for(lambda: fresh(later).hand_number == 1, seconds=30)
            assert node.is_alive
            assert "Unrecoverable error" not in node.log()
        finally:
            node.kill()

"""A tournament scheduled far ahead still starts on time, while no worker holds its
start task longer than the broker lets a task be held (``TASK_HOLD_SECONDS`` under
the visibility timeout, config/settings.py): held longer, Redis would hand the
task to another worker too, again and again until the start."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone
from kombu.simple import SimpleQueue

from config.celery import app as celery_app
from tests.support import wait_for
from tests.tournaments.helpers import members, register
from tournaments import tasks
from tournaments.models import Tournament
from tournaments.services.schedule import schedule_tournament
from tournaments.tournament_settings import TournamentSettings

pytestmark = pytest.mark.django_db(transaction=True)


def queued(task_name: str) -> list[tuple[datetime, dict[str, Any]]]:
    """(eta, keyword arguments) of each ``task_name`` waiting in the broker's queue,
    taken out of it."""
    found = []
    with celery_app.connection_for_read() as connection:
        queue: SimpleQueue = connection.SimpleQueue(celery_app.conf.task_default_queue)
        while True:
            try:
                message = queue.get(block=False)
            except queue.Empty:
                return found
            if message.headers["task"] == task_name:
                _, kwargs, _ = message.decode()
                found.append((datetime.fromisoformat(message.headers["eta"]), kwargs))
            message.ack()


def test_a_start_a_day_ahead_is_queued_no_further_ahead_than_a_task_may_be_held(settings):
    celery_app.control.purge()  # what earlier tests queued with no worker to run it
    starts_at = timezone.now() + timedelta(days=1)
    sunday = TournamentSettings(name="Sunday", starts_at=starts_at)

    tournament = schedule_tournament(settings=sunday)

    (eta, kwargs), *others = queued("tournaments.tasks.start_tournament")
    assert not others
    hold = timedelta(seconds=settings.TASK_HOLD_SECONDS)
    assert eta <= timezone.now() + hold, f"held {eta - timezone.now()} before it runs"
    assert datetime.fromisoformat(kwargs["due"]) == starts_at
    broker_options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    assert hold < timedelta(seconds=broker_options["visibility_timeout"])

    # That hop, run, starts nothing and queues the next one.
    assert tasks.start_tournament(tournament.pk, **kwargs) is False
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.REGISTERING
    (eta, kwargs), *others = queued("tournaments.tasks.start_tournament")
    assert not others and eta <= timezone.now() + hold
    assert datetime.fromisoformat(kwargs["due"]) == starts_at


def test_hops_through_a_real_worker_start_the_tournament_at_its_time(
    celery_worker, make_user, settings
):
    settings.TASK_HOLD_SECONDS = 0.5  # a start 2 s ahead takes four hops
    starts_at = timezone.now() + timedelta(seconds=2)
    tournament = schedule_tournament(settings=TournamentSettings(name="Soon", starts_at=starts_at))
    register(tournament, members(make_user, 2))

    wait_for(lambda: Tournament.objects.get(pk=tournament.pk).status == "running", seconds=20)

    started_at = Tournament.objects.get(pk=tournament.pk).started_at
    assert started_at is not None
    assert starts_at <= started_at < starts_at + timedelta(seconds=1)

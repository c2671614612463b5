"""Timed work of tournaments: the level announcement per boundary, the end of
rebuy offers and of deals not answered in time, and the sweep.

Tasks decide nothing: the services check the tournament's clock. The sweep
(celery beat, CELERY_BEAT_SCHEDULE) starts any scheduled tournament whose start
task was lost, announces any level whose task was lost, ends rebuy offers and deals whose
time passed, schedules the next game of each repeating club tournament whose last
one left registration, and opens the lobby's missing SNGs.

A worker holds a task unacknowledged from its delivery until it has run, the
wait for its eta included, and Redis hands a message held longer than the
broker's visibility timeout to another worker (config/settings.py,
``TASK_HOLD_SECONDS``). So a time further ahead than that is reached in
hops: the task is queued for at most the hold ahead, with the time it is for
(``due``), and a run before that time only queues the next hop.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from tournaments import services

log = logging.getLogger(__name__)


def _queue(task: Any, tournament_id: int, at: datetime, what: str) -> None:
    """``task`` for ``tournament_id`` at ``at``, or its next hop towards ``at``; a broker
    that refuses it is logged: the beat sweep does the same work a few seconds late."""
    hop = min(at, timezone.now() + timedelta(seconds=settings.TASK_HOLD_SECONDS))
    try:
        task.apply_async((tournament_id,), {"due": at.isoformat()} if hop < at else {}, eta=hop)
    except Exception:
        log.exception("could not queue %s of tournament %s", what, tournament_id)


def _is_hop(task: Any, tournament_id: int, due: str | None, what: str) -> bool:
    """Whether this run comes before the time it is for (``due``); then the next hop
    is queued, and the run does nothing else."""
    if due is None or (at := datetime.fromisoformat(due)) <= timezone.now():
        return False
    _queue(task, tournament_id, at, what)
    return True


@shared_task(ignore_result=True)
def announce_level(tournament_id: int, due: str | None = None) -> int | None:
    if _is_hop(announce_level, tournament_id, due, "the level task"):
        return None
    return services.tournament_level_announce(tournament_id=tournament_id)


def queue_level_announcement(tournament_id: int, at: datetime) -> None:
    """The services' level scheduler (``TournamentsConfig.ready``)."""
    _queue(announce_level, tournament_id, at, "the level task")


@shared_task(ignore_result=True)
def start_tournament(tournament_id: int, due: str | None = None) -> bool:
    if _is_hop(start_tournament, tournament_id, due, "the start"):
        return False
    return services.mtt_start(tournament_id=tournament_id) is not None


def queue_start(tournament_id: int, at: datetime) -> None:
    """The schedule service's start scheduler (``TournamentsConfig.ready``)."""
    _queue(start_tournament, tournament_id, at, "the start")


@shared_task(ignore_result=True)
def end_rebuy_offers(tournament_id: int, due: str | None = None) -> int:
    if _is_hop(end_rebuy_offers, tournament_id, due, "the end of the rebuy offers"):
        return 0
    return services.rebuy_offers_expire(tournament_id=tournament_id, now=timezone.now())


def queue_rebuy_offers_end(tournament_id: int, at: datetime) -> None:
    """The rebuy service's offer scheduler (``TournamentsConfig.ready``)."""
    _queue(end_rebuy_offers, tournament_id, at, "the end of the rebuy offers")


@shared_task(ignore_result=True)
def end_deal(tournament_id: int, due: str | None = None) -> int:
    if _is_hop(end_deal, tournament_id, due, "the end of the deal"):
        return 0
    return services.deals_expire(tournament_id=tournament_id, now=timezone.now())


def queue_deal_end(tournament_id: int, at: datetime) -> None:
    """The deal service's scheduler (``TournamentsConfig.ready``)."""
    _queue(end_deal, tournament_id, at, "the end of the deal")


@shared_task(ignore_result=True)
def sweep() -> int:
    """Start scheduled tournaments whose task was lost; announce levels that went
    unannounced; schedule repeating tournaments' next games; open missing SNGs.
    Returns levels announced."""
    for tournament_id in services.mtts_due(now=timezone.now()):
        try:
            services.mtt_start(tournament_id=tournament_id)
        except Exception:
            log.exception("sweep: tournament %s failed to start", tournament_id)
    done = 0
    for tournament_id in services.levels_due(now=timezone.now()):
        try:
            if services.tournament_level_announce(tournament_id=tournament_id) is not None:
                done += 1
        except Exception:
            log.exception("sweep: tournament %s failed to announce its level", tournament_id)
    for due, expire, what in (
        (services.rebuy_offers_due, services.rebuy_offers_expire, "its rebuy offers"),
        (services.deals_due, services.deals_expire, "its deal"),
    ):
        for tournament_id in due(now=timezone.now()):
            try:
                expire(tournament_id=tournament_id, now=timezone.now())
            except Exception:
                log.exception("sweep: tournament %s failed to end %s", tournament_id, what)
    for series_id in services.series_due(now=timezone.now()):
        try:
            services.series_extend(series_id=series_id, now=timezone.now())
        except Exception:
            log.exception("sweep: repeating tournament %s failed to schedule its next", series_id)
    try:
        services.sngs_ensure_open()
    except Exception:
        log.exception("sweep: could not open the lobby's sit-n-gos")
    return done

"""Timed work of live tables: the wake task, how it is queued, and the sweep.

Tasks decide nothing: ``tables.services.table_wake`` checks the ``seq`` and
what is due. The sweep (celery beat, CELERY_BEAT_SCHEDULE) re-applies any
wake-up whose task was lost, so a lost task loses nothing. ``schedule`` is
what the services' ``tables.wakeups.request`` calls (registered in
``TablesConfig.ready``).
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from tables import selectors, services
from tables.errors import TableNotFound
from tables.fairness_log import append as fairness_log
from tables.history import allin_ev, member_data
from tables.services import presence
from tables.wakeups import Wake

log = logging.getLogger(__name__)

# A queued wake task this close to running is not relied on to queue the next.
WAKE_SKIP_MARGIN = 1.0  # seconds
# A hand still without its all-in EV this long after it ended lost its task.
ALLIN_EV_LOST_AFTER = 30.0  # seconds


@shared_task(ignore_result=True)
def wake(table_id: int, seq: int, token: str | None = None) -> str | None:
    """Apply what is due at ``seq``; ``token`` names this task in the table's wake note.

    A task that finds its table moved on queues the next one when it was the
    table's last queued task (see ``schedule``).
    """
    try:
        table = selectors.table_get(table_id=table_id)
    except TableNotFound:
        return None
    if table.seq != seq:
        if token is not None:
            rearm(table.pk, table.seq, token, table.wake_at)
        return None
    return services.table_wake(table_id=table_id, seq=seq, table=table)


@shared_task(ignore_result=True)
def sweep() -> int:
    """Apply everything due; returns how many tables it moved on.

    Beat runs it every ``TABLES_SWEEP_SECONDS``, so a wake-up whose task was
    lost is applied within one period; one later than that is overdue
    (``selectors.wake_overdue_before``) and /healthz lists its table.

    Each table on its own: one that fails is logged and the others are still
    swept (the failed one is tried again on the next sweep). Hands whose all-in
    EV task was lost are filled in too, finished hands not yet in the fairness log
    are appended (those of a lost task, and hands played before the log), and
    players whose sockets' server died are marked away.
    """
    done = 0
    now = timezone.now()
    for table_id, seq in selectors.tables_due(now=now):
        try:
            if services.table_wake(table_id=table_id, seq=seq) is not None:
                done += 1
        except Exception:
            log.exception("sweep: table %s failed to wake (seq %s)", table_id, seq)
    lost = now - timedelta(seconds=ALLIN_EV_LOST_AFTER)
    for hand_id in allin_ev.hands_pending(ended_before=lost):
        try:
            allin_ev.allin_ev_fill(hand_id=hand_id)
        except Exception:
            log.exception("sweep: the all-in EV of hand %s could not be filled in", hand_id)
    try:
        if fairness_log.log_catch_up(batches=1) == fairness_log.APPEND_BATCH:
            schedule_log_append()  # more are waiting (hands from before the log)
    except Exception:
        log.exception("sweep: finished hands could not be appended to the fairness log")
    try:
        presence.presence_sweep(now=now)
    except Exception:
        log.exception("sweep: stale presence leases could not be dropped")
    return done


@shared_task(ignore_result=True)
def fill_allin_ev(hand_id: int) -> bool:
    return allin_ev.allin_ev_fill(hand_id=hand_id)


def schedule_allin_ev(hand_id: int) -> None:
    """What the services' ``allin_ev.request`` calls (registered in ``TablesConfig.ready``)."""
    try:
        fill_allin_ev.delay(hand_id)
    except Exception:  # the sweep fills it anyway
        log.exception("could not queue the all-in EV of hand %s", hand_id)


@shared_task(ignore_result=True)
def append_to_log() -> int:
    """Append the finished hands not yet in the public log (tables/fairness_log/), a
    bounded number of batches; a backfill longer than that goes on in another task."""
    appended = fairness_log.log_catch_up()
    if appended == fairness_log.APPEND_BATCH * fairness_log.APPEND_BATCHES_PER_TASK:
        schedule_log_append()
    return appended


def schedule_log_append() -> None:
    """Another task for a backlog longer than one task appends (hands from before the
    log); the sweep appends the hands of the moment."""
    try:
        append_to_log.delay()
    except Exception:  # the sweep appends it anyway
        log.exception("could not queue the fairness log's append")


@shared_task(ignore_result=True)
def rewrite_stored_histories(hand_ids: list[int]) -> int:
    """A closed account's hands: their stored PHH written again with its label."""
    return member_data.stored_histories_rewrite(hand_ids)


def schedule_stored_rewrite(hand_ids: list[int]) -> None:
    """What ``member_data.names_forget`` calls once committed (``TablesConfig.ready``)."""
    try:
        rewrite_stored_histories.delay(hand_ids)
    except Exception:  # nobody is sent the stored text: it keeps the old name meanwhile
        log.exception("could not queue the rewrite of %s stored histories", len(hand_ids))


def schedule(wake_up: Wake) -> None:
    """Queue the wake task for ``wake_up.at``, unless one already queued will see to it.

    A human's deadline moves 20 s on with every action, and queueing a task
    each time cost more than the action itself. So the table's last queued
    task is noted in the cache (its token and time): while it is still ahead
    and not later than ``wake_up.at``, nothing more is queued, and that task,
    finding the table moved on, queues the next one itself (``rearm``). An
    earlier time (a bot's move, the next hand) is always queued; a lost task
    or note is covered by the sweep.
    """
    if wake_up.at is None:
        return
    now = timezone.now()
    try:
        pending = cache.get(wake_key(wake_up.table_id))
    except Exception:  # no cache: queue every time, as if nothing were pending
        pending = None
    earliest_skip = now.timestamp() + WAKE_SKIP_MARGIN
    if pending is not None and earliest_skip < pending[1] <= wake_up.at.timestamp():
        return
    _queue(wake_up, now)


def rearm(table_id: int, seq: int, token: str, at: datetime | None) -> None:
    """A wake task found its table moved on: queue the next one if it was the table's last."""
    try:
        pending = cache.get(wake_key(table_id))
    except Exception:
        pending = None
    if at is not None and pending is not None and pending[0] == token:
        _queue(Wake(table_id, seq, at), timezone.now())


def _queue(wake_up: Wake, now: datetime) -> None:
    assert wake_up.at is not None
    countdown = max(0.0, (wake_up.at - now).total_seconds())
    if countdown > settings.TASK_HOLD_SECONDS:
        # Longer than a worker may hold a task (config/settings.py): not queued, and
        # the sweep applies it within one period of its time. Felt's clocks are
        # shorter (a decision's at most MAX_ACTION_SECONDS, a time bank's 30 s).
        return
    token = secrets.token_hex(8)
    try:
        cache.set(wake_key(wake_up.table_id), (token, wake_up.at.timestamp()), countdown + 60)
    except Exception:
        log.warning("could not note the wake task of table %s", wake_up.table_id)
    try:
        wake.apply_async((wake_up.table_id, wake_up.seq, token), countdown=countdown)
    except Exception:  # the sweep applies it anyway: a lost task loses nothing
        log.exception("could not queue the wake task of table %s", wake_up.table_id)


def wake_key(table_id: int) -> str:
    return f"tables:wake:{table_id}"

"""Starting a sit-n-go (inside the transaction of its last registration) and closing
its tables when it is cancelled."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from random import SystemRandom

from django.conf import settings
from django.db import transaction
from django.urls import reverse

from tables.models import Seat, Table
from tables.services import play as p
from tables.services.clock import starting_time_bank
from tournaments import broadcast
from tournaments.models import Tournament

_rng = SystemRandom()
STARTED = "Your sit-n-go has started — take your seat"


def tournament_start(*, tournament: Tournament, now: datetime) -> Table:
    """One table, everyone in a random seat, the button by random draw, the first hand
    dealt at once. Call with the tournament locked, in the registration's transaction."""
    structure = tournament.blind_structure
    first = structure.levels[0]
    table = Table.objects.create(
        name=f"Tournament #{tournament.pk}",
        kind=Table.Kind.TOURNAMENT,
        tournament=tournament,
        seat_count=tournament.seats,
        small_blind=first.small_blind,
        big_blind=first.big_blind,
        ante=first.ante,
        starting_stack=structure.starting_stack,
        action_seconds=settings.TOURNAMENTS_ACTION_SECONDS,
    )
    entries = list(tournament.entries.select_related("user").order_by("pk"))
    numbers = _rng.sample(range(tournament.seats), len(entries))
    Seat.objects.bulk_create(
        Seat(
            table=table,
            number=number,
            user=entry.user,
            is_bot=entry.is_bot,
            bot_name=entry.bot_name,
            entry=entry,
            stack=structure.starting_stack,
            time_bank=starting_time_bank(),
        )
        for number, entry in zip(numbers, entries, strict=True)
    )
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament.save(update_fields=["status", "started_at"])
    play = p.lock(table.pk)  # the button is drawn at random for the first hand
    p.deal(play)
    p.commit(play)
    url = reverse("tables:table_detail", args=[table.pk])
    notice = {"kind": "tournament_started", "text": STARTED, "url": url}
    broadcast.user_notices([(e.user_id, notice) for e in entries if e.user_id is not None])
    schedule_level_task(tournament, 0)
    return table


LevelScheduler = Callable[[int, datetime], None]
_level_scheduler: LevelScheduler | None = None


def set_level_scheduler(scheduler: LevelScheduler) -> None:
    """Who queues a level announcement (``tournaments/tasks.py``, registered when the app
    is ready): the services never import Celery, nor the tasks that call them."""
    global _level_scheduler
    _level_scheduler = scheduler


def schedule_level_task(tournament: Tournament, index: int) -> None:
    """Once committed: the task that announces the level after ``index`` when it begins."""
    ends_at = tournament.level_ends_at(index)
    if ends_at is None or _level_scheduler is None:  # the beat sweep announces it anyway
        return
    tournament_id, scheduler = tournament.pk, _level_scheduler
    transaction.on_commit(lambda: scheduler(tournament_id, ends_at))


def tables_close(tournament: Tournament) -> None:
    """Stop play at the tournament's tables (tournament locked): nothing more is due,
    the seats are cleared. Tables in id order, after the tournament (lock order)."""
    for table_id in tournament.tables.order_by("pk").values_list("pk", flat=True):
        play = p.lock(table_id)
        play.removed.extend(play.seats.values())
        play.seats = {}
        table = play.table
        table.wake_at = table.deadline = table.next_hand_at = None
        p.commit(play)

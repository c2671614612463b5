"""Starting a sit-n-go (inside the transaction of its last registration) and closing
its tables when it is cancelled."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from random import SystemRandom
from typing import Any

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from tables.models import Seat, Table
from tables.services import play as p
from tables.services.clock import starting_time_bank
from tournaments import broadcast
from tournaments.models import Entry, Tournament

_rng = SystemRandom()
STARTED = "Your sit-n-go has started — take your seat"


def tournament_start(*, tournament: Tournament, now: datetime) -> Table:
    """One table, everyone in a random seat, the button by random draw, the first hand
    dealt at once. Call with the tournament locked, in the registration's transaction."""
    entries = list(tournament.entries.select_related("user").order_by("pk"))
    numbers = _rng.sample(range(tournament.seats), len(entries))
    seating = dict(zip(numbers, entries, strict=True))
    table = table_open(tournament, f"Tournament #{tournament.pk}", seating)
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament.save(update_fields=["status", "started_at"])
    deal_first_hand(table)
    url = reverse("tables:table_detail", args=[table.pk])
    notice = {"kind": "tournament_started", "text": STARTED, "url": url}
    broadcast.user_notices([(e.user_id, notice) for e in entries if e.user_id is not None])
    schedule_level_task(tournament, 0)
    return table


def table_open(
    tournament: Tournament,
    name: str,
    seating: dict[int, Entry],
    carried: dict[int, Seat] | None = None,
) -> Table:
    """A table of the tournament, dealing its game, with ``seating`` (seat number:
    entry), each with the starting stack, or what their seat elsewhere had (``carried``,
    by entry id): its stack, time bank and whether they are sitting out. No hand dealt
    yet."""
    structure = tournament.blind_structure
    first = structure.levels[0]
    table = Table.objects.create(
        name=name,
        kind=Table.Kind.TOURNAMENT,
        tournament=tournament,
        seat_count=tournament.seats,
        small_blind=first.small_blind,
        big_blind=first.big_blind,
        ante=first.ante,
        starting_stack=structure.starting_stack,
        action_seconds=settings.TOURNAMENTS_ACTION_SECONDS,
        game=tournament.game,
    )
    carried = carried or {}
    # Nobody has the new table open yet: each is counted absent until their page opens
    # it (tables/services/presence.py), so a player who never comes is not waited for
    # with the whole clock (rule 32).
    now = timezone.now()
    Seat.objects.bulk_create(
        Seat(
            table=table,
            number=number,
            user=entry.user,
            is_bot=entry.is_bot,
            bot_name=entry.bot_name,
            entry=entry,
            disconnected_at=None if entry.is_bot else now,
            **_carried_over(carried.get(entry.pk), structure.starting_stack),
        )
        for number, entry in seating.items()
    )
    return table


def _carried_over(seat: Seat | None, starting_stack: int) -> dict[str, Any]:
    if seat is None:
        return {"stack": starting_stack, "time_bank": starting_time_bank()}
    return {
        "stack": seat.stack,
        "chips_to_add": seat.chips_to_add,  # a rebuy or add-on on its way comes along
        "time_bank": seat.time_bank,
        "hands_since_refill": seat.hands_since_refill,
        "is_sitting_out": seat.is_sitting_out,
    }


def deal_first_hand(table: Table) -> None:
    """The button drawn at random, the first hand dealt (tournament locked first)."""
    play = p.lock(table.pk)
    p.deal(play)
    p.commit(play)


def plan_first_hand(table: Table) -> None:
    """The first hand due after the usual pause between hands (tournament locked first)."""
    play = p.lock(table.pk)
    p.plan_next_hand(play)
    p.commit(play)


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

"""Announcing blind levels: the task queued for each boundary, and the sweep's catch-up.

The level itself needs no announcement to be right: each hand takes its
blinds from ``level_at`` when it starts (``tournaments.kind``). This tells
the table and the lobby that the blinds go up from the next hand.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tables.models import Seat
from tables.play import Play
from tournaments import broadcast
from tournaments.models import Tournament
from tournaments.services.rebuy_offers import end_offers_if_rebuy_closed
from tournaments.services.registration import locked
from tournaments.services.start import schedule_level_task

EVERYONE_AWAY = "every player left is away, so each hand is dealt at the next level"


def level_text(small_blind: int, big_blind: int, ante: int) -> str:
    blinds = f"Blinds {small_blind:,}/{big_blind:,}"
    return f"{blinds}, ante {ante:,}" if ante else blinds


def tournament_level_announce(*, tournament_id: int, now: datetime | None = None) -> int | None:
    """Announce the level in play if not yet announced; its index, or None if nothing to do.

    Queues the task for the following boundary, so a chain lost anywhere is
    picked up again by the sweep.
    """
    now = now or timezone.now()
    with transaction.atomic():
        try:
            tournament = locked(tournament_id)
        except Exception:
            return None
        if tournament.status != Tournament.Status.RUNNING:
            return None
        index, level = tournament.level_at(now)
        if index <= tournament.announced_level:
            return None
        tournament.announced_level = index
        tournament.save(update_fields=["announced_level"])
        text = level_text(level.small_blind, level.big_blind, level.ante)
        tables = tournament.tables.order_by("pk")
        if all(dealt >= index for dealt in tables.values_list("level", flat=True)):
            text += f" now: {EVERYONE_AWAY}"  # a table ran the clock ahead as it dealt
        else:
            text += " from the next hand"
        notice = {
            "kind": "level",
            "text": text,
            "level": index + 1,
            "small_blind": level.small_blind,
            "big_blind": level.big_blind,
            "ante": level.ante,
            "tournament_id": tournament.pk,
        }
        for table_id in tables.values_list("pk", flat=True):
            broadcast.table_notice(table_id, notice)
        broadcast.lobby_update(tournament.pk, announcement=text)
        schedule_level_task(tournament, index)
        end_offers_if_rebuy_closed(tournament, now)
        return index


def levels_due(*, now: datetime) -> list[int]:
    """Running tournaments whose level in play has not been announced (a lost task)."""
    return [
        t.pk
        for t in Tournament.objects.filter(status=Tournament.Status.RUNNING)
        if t.level_at(now)[0] > t.announced_level
    ]


def is_everyone_away(play: Play, tournament: Tournament) -> bool:
    """Every player left in ``tournament`` is away (rule 32), none a bot: nobody is
    there to play. Only a multi-table tournament whose table here is all away asks
    the database about its other tables."""
    seats = play.seats.values()
    if not seats or any(seat.is_bot or not seat.is_sitting_out for seat in seats):
        return False
    if not tournament.is_multi_table:
        return True
    there = Q(is_bot=True) | Q(is_sitting_out=False)
    elsewhere = Seat.objects.filter(table__tournament=tournament).exclude(table=play.table)
    return not elsewhere.filter(there).exists()


def run_ahead_if_everyone_is_away(play: Play, tournament: Tournament) -> None:
    """Rule 33: while every player left is away, each hand is dealt at the next level
    (``Tournament.run_ahead_to_next_level``), so their blinds blind them off in minutes
    rather than hours. Called as a hand is dealt, the tournament's row locked first
    (``TournamentBehaviour.lock_first``); the new level is announced once committed."""
    if not is_everyone_away(play, tournament):
        return
    index = tournament.level_at(play.now)[0]
    if tournament.run_ahead_to_next_level(play.now):
        tournament.save(update_fields=["clock_ahead_seconds"])
        schedule_level_task(tournament, index)

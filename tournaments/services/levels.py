"""Announcing blind levels: the task queued for each boundary, and the sweep's catch-up.

The level itself needs no announcement to be right: each hand takes its
blinds from ``level_at`` when it starts (``tournaments.kind``). This tells
the table and the lobby that the blinds go up from the next hand.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from tournaments import broadcast
from tournaments.models import Tournament
from tournaments.services.registration import locked
from tournaments.services.start import schedule_level_task


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
        text = level_text(level.small_blind, level.big_blind, level.ante) + " from the next hand"
        notice = {
            "kind": "level",
            "text": text,
            "level": index + 1,
            "small_blind": level.small_blind,
            "big_blind": level.big_blind,
            "ante": level.ante,
            "tournament_id": tournament.pk,
        }
        for table_id in tournament.tables.order_by("pk").values_list("pk", flat=True):
            broadcast.table_notice(table_id, notice)
        broadcast.lobby_update(tournament.pk, announcement=text)
        schedule_level_task(tournament, index)
        return index


def levels_due(*, now: datetime) -> list[int]:
    """Running tournaments whose level in play has not been announced (a lost task)."""
    return [
        t.pk
        for t in Tournament.objects.filter(status=Tournament.Status.RUNNING)
        if t.level_at(now)[0] > t.announced_level
    ]

"""A practice sit-n-go: a member against five bots, a freeroll, started in one click."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tables.models import Table
from tables.services.bots import bot_name
from tournaments.models import Entry, Tournament
from tournaments.services.registration import check_member
from tournaments.services.start import tournament_start


def practice_sng_start(*, user: Any, structure: str = "hyper") -> tuple[Tournament, Table]:
    """Open, fill and start a practice SNG for ``user``: one table, first hand dealt."""
    check_member(user)
    with transaction.atomic():
        running = _running_practice(user)
        if running is not None:  # one at a time: a second click goes back to it
            return running, running.tables.order_by("pk")[0]
        tournament = Tournament.objects.create(
            kind=Tournament.Kind.PRACTICE,
            structure=structure,
            buy_in=0,
            owner=user,
            level_seconds=settings.TOURNAMENTS_LEVEL_SECONDS or None,
        )
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        Entry.objects.create(tournament=locked, user=user, name=user.public_name)
        for index in range(locked.seats - 1):
            name = bot_name(index)
            Entry.objects.create(tournament=locked, is_bot=True, bot_name=name, name=name)
        table = tournament_start(tournament=locked, now=timezone.now())
        return locked, table


def _running_practice(user: Any) -> Tournament | None:
    return (
        Tournament.objects.select_for_update()
        .filter(kind=Tournament.Kind.PRACTICE, owner=user, status=Tournament.Status.RUNNING)
        .first()
    )

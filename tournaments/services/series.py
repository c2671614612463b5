"""A club's repeating tournaments: the series made with its first occurrence, and each
next occurrence scheduled once the one before has left registration (started, or
cancelled), so a series always lists its next game in the club until it is stopped.

The beat sweep (``tournaments/tasks.py``) asks ``series_due`` and calls
``series_extend`` for each; two sweeps at once (two nodes) make one occurrence: each
locks the club's row, then the series', and looks again; the database's
one-tournament-per-series-and-start constraint stands behind that.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db import transaction

from tournaments.errors import BadSettings
from tournaments.models import MAX_REPEAT_DAYS, Club, Tournament, TournamentSeries
from tournaments.services.schedule import schedule_tournament
from tournaments.tournament_settings import TournamentSettings


def check_repeat(every_days: Any, time_zone: Any) -> None:
    """Refuse days between games outside 1 to ``MAX_REPEAT_DAYS``, or an unknown zone."""
    if type(every_days) is not int or not 1 <= every_days <= MAX_REPEAT_DAYS:
        raise BadSettings(
            "bad_repeat",
            f"The days between games must be a whole number from 1 to {MAX_REPEAT_DAYS}.",
        )
    try:
        if not isinstance(time_zone, str) or len(time_zone) > 64:
            raise ValueError(time_zone)
        ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise BadSettings("bad_time_zone", "Felt does not know that time zone.") from None


def series_start(
    *, club: Club, admin: Any, settings: TournamentSettings, every_days: int, time_zone: str
) -> Tournament:
    """A repeating tournament and its first occurrence, on ``settings.starts_at`` (the
    club's row locked by the caller)."""
    check_repeat(every_days, time_zone)
    stored = dataclasses.asdict(settings)
    del stored["starts_at"]
    series = TournamentSeries.objects.create(
        club=club,
        name=settings.name,
        settings=stored,
        first_starts_at=settings.starts_at,
        every_days=every_days,
        time_zone=time_zone,
        created_by=admin,
    )
    return schedule_tournament(settings=settings, club=club, series=series)


def series_due(*, now: datetime) -> list[int]:
    """Series still repeating whose next occurrence is not scheduled yet."""
    return list(
        TournamentSeries.objects.filter(stopped_at=None)
        .exclude(occurrences__status=Tournament.Status.REGISTERING)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def series_extend(*, series_id: int, now: datetime) -> Tournament | None:
    """The series' next occurrence, at its first start after the latest one's and
    after ``now``; None when it is stopped or its next game is already listed."""
    club_id = TournamentSeries.objects.filter(pk=series_id).values_list("club_id", flat=True)
    with transaction.atomic():
        club = Club.objects.select_for_update().filter(pk__in=club_id).first()
        series = TournamentSeries.objects.select_for_update().filter(pk=series_id).first()
        if club is None or series is None or series.is_stopped:
            return None
        if series.occurrences.filter(status=Tournament.Status.REGISTERING).exists():
            return None
        latest = series.occurrences.order_by("-starts_at").values_list("starts_at", flat=True)
        after = max(now, latest.first() or now)
        settings = TournamentSettings(
            **series.occurrence_settings(), starts_at=series.next_start(after)
        )
        return schedule_tournament(settings=settings, club=club, series=series)

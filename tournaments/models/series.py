"""A club's repeating tournament: the same game every week, or every so many days,
until its director stops it. Each occurrence is a tournament of its own
(``Tournament.series``), with its own registration."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q

from config.adapters.json_field import JSONField
from tournaments.models.clubs import Club

MAX_REPEAT_DAYS = 90


class TournamentSeries(models.Model):
    """The settings every occurrence is scheduled with (``TournamentSettings`` but its
    start), the first start, and the days between starts, kept at the same wall-clock
    time in ``time_zone`` (the director's) across changes of the clocks.

    Written by ``tournaments.services.series``, which locks the club's row, then this.
    """

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="series")
    name = models.CharField(max_length=80)
    settings = JSONField()
    first_starts_at = models.DateTimeField()
    every_days = models.PositiveSmallIntegerField()
    time_zone = models.CharField(max_length=64, default="UTC")
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    stopped_at = models.DateTimeField(null=True, blank=True)
    stopped_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(every_days__gte=1, every_days__lte=MAX_REPEAT_DAYS),
                name="tournaments_series_every_1_to_90_days",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.repeats})"

    @property
    def repeats(self) -> str:
        """How often, as a member reads it: "Weekly", "Every 2 weeks", "Every 3 days"."""
        if self.every_days % 7 == 0:
            weeks = self.every_days // 7
            return "Weekly" if weeks == 1 else f"Every {weeks} weeks"
        return "Daily" if self.every_days == 1 else f"Every {self.every_days} days"

    @property
    def is_stopped(self) -> bool:
        return self.stopped_at is not None

    def start_of(self, number: int) -> datetime:
        """The start of occurrence ``number`` (0 = the first): the first start's wall
        time in the series' zone, ``number`` times ``every_days`` later. A wall time the
        clocks skip that day is read with the offset before the change."""
        zone = ZoneInfo(self.time_zone)
        wall = self.first_starts_at.astimezone(zone).replace(tzinfo=None)
        wall += timedelta(days=self.every_days * number)
        return wall.replace(tzinfo=zone, fold=0).astimezone(UTC)

    def next_start(self, after: datetime) -> datetime:
        """The first start later than ``after``."""
        days = (after - self.first_starts_at).total_seconds() / 86400
        number = max(0, int(days // self.every_days) - 1)  # a step back: a day may be 23 h
        while self.start_of(number) <= after:
            number += 1
        return self.start_of(number)

    def occurrence_settings(self) -> dict[str, Any]:
        """The stored settings, a copy for ``TournamentSettings(**..., starts_at=...)``."""
        return dict(self.settings)

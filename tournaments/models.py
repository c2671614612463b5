"""Sit-n-go tournaments, their entrants and (through ``Table.tournament``) their tables.

Every write goes through ``tournaments.services``: the tournament row is locked
first, then its tables in id order, then points accounts.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q

import engine

SNG_SEATS = 6
STRUCTURE_CHOICES = [(name, name.title()) for name in engine.STRUCTURES]


class Tournament(models.Model):
    class Kind(models.TextChoices):
        SNG = "sng", "Sit-n-go"
        PRACTICE = "practice", "Practice sit-n-go"

    class Status(models.TextChoices):
        REGISTERING = "registering", "Registering"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.SNG)
    structure = models.CharField(max_length=12, choices=STRUCTURE_CHOICES, default="regular")
    buy_in = models.PositiveIntegerField(default=0)
    seats = models.PositiveSmallIntegerField(default=SNG_SEATS)
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.REGISTERING, db_index=True
    )
    prize_pool = models.PositiveBigIntegerField(default=0)
    # Who opened a practice SNG (the only human in it); None for the lobby's SNGs.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owned_tournaments",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # The last level announced (index from 0); the level task and the sweep compare.
    announced_level = models.PositiveSmallIntegerField(default=0)
    # Seconds per level when set (tests and the load test); else the structure's.
    level_seconds = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seats__gte=2, seats__lte=SNG_SEATS), name="tournaments_seats_2_to_6"
            ),
            # The lobby has one SNG of each kind open: a fresh one opens once.
            models.UniqueConstraint(
                fields=["structure", "buy_in"],
                condition=Q(kind="sng", status="registering"),
                name="tournaments_one_open_sng_per_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title} (#{self.pk})"

    @property
    def title(self) -> str:
        stake = f"{self.buy_in:,} points" if self.buy_in else "Freeroll"
        kind = "Practice" if self.kind == self.Kind.PRACTICE else "Sit-n-go"
        return f"{self.structure.title()} {kind} · {stake}"

    @property
    def blind_structure(self) -> engine.BlindStructure:
        return engine.STRUCTURES[self.structure]

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)

    def level_length(self, index: int) -> float:
        """Seconds level ``index`` lasts."""
        if self.level_seconds is not None:
            return self.level_seconds
        levels = self.blind_structure.levels
        return levels[min(index, len(levels) - 1)].minutes * 60

    def level_at(self, moment: datetime) -> tuple[int, engine.BlindLevel]:
        """The level in play at ``moment`` (engine's level_at, on this SNG's clock)."""
        assert self.started_at is not None
        elapsed = max(0.0, (moment - self.started_at).total_seconds())
        if self.level_seconds is None:
            return self.blind_structure.level_at(elapsed)
        levels = self.blind_structure.levels
        index = min(int(elapsed // self.level_seconds), len(levels) - 1)
        return index, levels[index]

    def level_ends_at(self, index: int) -> datetime | None:
        """When level ``index`` ends (None for the last level: it lasts for ever)."""
        assert self.started_at is not None
        if index >= len(self.blind_structure.levels) - 1:
            return None
        seconds = sum(self.level_length(i) for i in range(index + 1))
        return self.started_at + timedelta(seconds=seconds)


class Entry(models.Model):
    """One entrant: a member who registered, or a bot of a practice SNG."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_entries",
    )
    is_bot = models.BooleanField(default=False)
    bot_name = models.CharField(max_length=40, blank=True)
    name = models.CharField(max_length=60)  # as shown when the entry was made
    buy_in = models.PositiveIntegerField(default=0)  # what was paid (refunded in full)
    registered_at = models.DateTimeField(auto_now_add=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    prize = models.PositiveBigIntegerField(default=0)
    # Chips at the start of the hand they went out in (rule 19 compares these).
    chips_at_elimination = models.PositiveIntegerField(null=True, blank=True)
    eliminated_at = models.DateTimeField(null=True, blank=True)
    # The hand that decided the place (went out in it, or won it): hand histories say so.
    final_hand = models.ForeignKey(
        "tables.Hand", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "place", "registered_at", "pk"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=Q(user__isnull=False),
                name="tournaments_entry_one_per_user",
            ),
            models.CheckConstraint(
                condition=Q(is_bot=False) | Q(user__isnull=True),
                name="tournaments_entry_bot_has_no_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.tournament_id}"

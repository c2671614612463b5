"""A tournament: its kind, game, structure, schedule and state."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q

import engine
from config.adapters.json_field import JSONField
from tables.models import Table
from tournaments.models.clubs import Club
from tournaments.models.series import TournamentSeries

SNG_SEATS = 6
MAX_SEATS_PER_TABLE = 9  # a multi-table tournament's tables seat 2 to 9
STRUCTURE_CHOICES = [(name, name.title()) for name in engine.STRUCTURES]


class Tournament(models.Model):
    class Kind(models.TextChoices):
        SNG = "sng", "Sit-n-go"
        PRACTICE = "practice", "Practice sit-n-go"
        MTT = "mtt", "Multi-table tournament"

    class Status(models.TextChoices):
        REGISTERING = "registering", "Registering"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.SNG)
    structure = models.CharField(max_length=12, choices=STRUCTURE_CHOICES, default="regular")
    # What every table it draws deals (docs/rules.md rule 21 for Omaha); a table's codes.
    game = models.CharField(
        max_length=4, choices=Table.Game.choices, default=Table.Game.NO_LIMIT_HOLDEM
    )
    buy_in = models.PositiveIntegerField(default=0)
    seats = models.PositiveSmallIntegerField(default=SNG_SEATS)  # per table
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
    # Seconds the level clock was run ahead of the wall's, a level a hand, while every
    # player left was away (docs/rules.md rule 33; ``run_ahead_to_next_level``).
    clock_ahead_seconds = models.FloatField(default=0.0)

    # A scheduled multi-table tournament's settings (tournaments/services/schedule.py).
    name = models.CharField(max_length=80, blank=True)
    starts_at = models.DateTimeField(null=True, blank=True, db_index=True)
    starting_stack = models.PositiveIntegerField(null=True, blank=True)  # None: structure's
    max_entrants = models.PositiveIntegerField(null=True, blank=True)  # None: the seats
    # Registration stays open until the end of this level (1 = the first); 0: until start.
    late_registration_levels = models.PositiveSmallIntegerField(default=0)
    # [{"small_blind", "big_blind", "ante", "minutes"}, ...] instead of ``structure``.
    custom_levels = JSONField(null=True, blank=True)
    payout_percentages = JSONField(null=True, blank=True)  # None: by field size
    # A break of ``break_minutes`` after every ``break_every_minutes`` of play (0: none).
    break_every_minutes = models.PositiveSmallIntegerField(default=0)
    break_minutes = models.PositiveSmallIntegerField(default=0)
    # Or breaks placed between levels: [{"after_level": 4, "minutes": 10}, ...] (1 = the
    # first level), as a club's level editor lists them. Never both kinds at once.
    level_breaks = JSONField(null=True, blank=True)
    # Whose points pay buy-ins, refunds and prizes: "site", or a club's ("club:<id>").
    points_scope = models.CharField(max_length=40, default="site")
    # A club's tournament is seen and played by its members only (its scope is the club's).
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.PROTECT, related_name="tournaments"
    )
    # An occurrence of a club's repeating tournament (its own registration); None: a one-off.
    series = models.ForeignKey(
        TournamentSeries,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="occurrences",
    )
    # Rebuys until the end of level ``rebuy_levels`` (1 = the first; 0: none), at most
    # ``max_rebuys`` per entry, each the buy-in for the starting stack; then an add-on of
    # ``addon_chips`` for ``addon_price`` (0 chips: none), once per player, until the end
    # of the level after the rebuy period (docs/tournaments.md, "Rebuys and add-ons").
    # Knockouts: this part of each buy-in is a bounty on the player's head, paid to
    # whoever knocks them out (rule 26); progressive: half paid, half added to the
    # winner's own bounty (rule 27). 0: no bounties.
    bounty = models.PositiveIntegerField(default=0)
    is_progressive_bounty = models.BooleanField(default=False)
    # Re-entry (instead of rebuys): a player out of it may register again, as a new
    # entry, during late registration, this many times (0: no re-entry).
    max_reentries = models.PositiveSmallIntegerField(default=0)
    rebuy_levels = models.PositiveSmallIntegerField(default=0)
    max_rebuys = models.PositiveSmallIntegerField(default=0)
    addon_chips = models.PositiveIntegerField(default=0)
    addon_price = models.PositiveIntegerField(default=0)
    # Tables between hands deal no more until every table is between hands: the players
    # left fit at one table (then the final table is drawn), or hand-for-hand play.
    is_waiting_for_tables = models.BooleanField(default=False)
    # One player from the money: every table plays one hand, then waits for the others.
    is_hand_for_hand = models.BooleanField(default=False)
    # A deal waits for the players' answers (its Deal row is open): the tables, which
    # lock this row first, know it without reading the deals at every command.
    has_open_deal = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seats__gte=2, seats__lte=MAX_SEATS_PER_TABLE),
                name="tournaments_seats_2_to_9",
            ),
            # The lobby has one SNG of each kind open: a fresh one opens once.
            models.UniqueConstraint(
                fields=["game", "structure", "buy_in"],
                condition=Q(kind="sng", status="registering"),
                name="tournaments_one_open_sng_per_kind",
            ),
            # The sweep on two nodes at once still makes one tournament per start.
            models.UniqueConstraint(
                fields=["series", "starts_at"], name="tournaments_one_per_series_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title} (#{self.pk})"

    @property
    def title(self) -> str:
        if self.name:
            return self.name
        stake = f"{self.buy_in:,} points" if self.buy_in else "Freeroll"
        kind = "Practice" if self.kind == self.Kind.PRACTICE else "Sit-n-go"
        if self.game == Table.Game.POT_LIMIT_OMAHA:  # told from the same stakes in Hold'em
            kind = f"Omaha {kind.lower()}"
        return f"{self.structure.title()} {kind} · {stake}"

    @property
    def game_name(self) -> str:
        """The game its tables deal, as players call it: "Pot-Limit Omaha"."""
        return Table.Game(self.game).label

    @property
    def blind_structure(self) -> engine.BlindStructure:
        base = engine.STRUCTURES[self.structure]
        if not self.custom_levels and self.starting_stack is None:
            return base
        levels = base.levels
        if self.custom_levels:
            levels = tuple(engine.BlindLevel(**level) for level in self.custom_levels)
        return engine.BlindStructure("custom", self.starting_stack or base.starting_stack, levels)

    @property
    def points_unit(self) -> str:
        """What its buy-ins and prizes are counted in, as the member reads it."""
        return "club points" if self.club_id is not None else "points"

    @property
    def is_multi_table(self) -> bool:
        return self.kind == self.Kind.MTT

    @property
    def entrant_limit(self) -> int:
        return self.max_entrants or self.seats

    def is_late_registration_open(self, moment: datetime) -> bool:
        """A running multi-table tournament takes players until its late levels end."""
        return (
            self.is_multi_table
            and self.status == self.Status.RUNNING
            and not self.is_waiting_for_tables
            and self.level_at(moment)[0] < self.late_registration_levels
        )

    @property
    def has_rebuys(self) -> bool:
        return self.rebuy_levels > 0 and self.max_rebuys > 0

    def _level_index(self, moment: datetime) -> int | None:
        if self.status != self.Status.RUNNING or self.started_at is None:
            return None
        return self.level_at(moment)[0]

    def is_in_the_money(self) -> bool:
        """Whether a paid place has been given: a player out finished in the prizes
        (the places paid count entries, which no purchase changes)."""
        counts = self.entries.aggregate(
            entries=models.Count("pk"), left=models.Count("pk", filter=Q(place=None))
        )
        return self.is_money_reached(counts["entries"], counts["left"])

    def is_money_reached(self, entries: int, left: int) -> bool:
        """``is_in_the_money`` from its counts: ``entries`` in all, ``left`` still in."""
        return left < len(self.prizes(entries))

    def is_rebuy_period(self, moment: datetime) -> bool:
        """Whether ``moment`` falls before the end of level ``rebuy_levels``."""
        index = self._level_index(moment)
        return self.has_rebuys and index is not None and index < self.rebuy_levels

    def is_addon_period(self, moment: datetime) -> bool:
        """Whether ``moment`` falls between the end of the rebuy period and the end of
        the next level: the break between them, when there is one, included (the clock
        stops during a break, so the level in play is the next one all along)."""
        index = self._level_index(moment)
        return self.has_rebuys and self.addon_chips > 0 and index == self.rebuy_levels

    def is_rebuy_open(self, moment: datetime) -> bool:
        """Rebuys are sold in the rebuy period, and never once the tournament is in the
        money (rule 34)."""
        return self.is_rebuy_period(moment) and not self.is_in_the_money()

    def is_addon_open(self, moment: datetime) -> bool:
        """The add-on is sold in its period, and never once in the money (rule 34)."""
        return self.is_addon_period(moment) and not self.is_in_the_money()

    def prizes(self, entrants: int) -> tuple[int, ...]:
        """The pool split for 1st, 2nd, ...: the tournament's percentages, else by field."""
        return engine.payouts(self.prize_pool, entrants, self.payout_percentages or None)

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)

    def level_length(self, index: int) -> float:
        """Seconds level ``index`` lasts."""
        if self.level_seconds is not None:
            return self.level_seconds
        levels = self.blind_structure.levels
        return levels[min(index, len(levels) - 1)].minutes * 60

    def _breaks(self) -> Iterator[tuple[float, float]]:
        """Each break in order: (seconds of play before it, seconds it lasts). Breaks
        every so many minutes never end; breaks between levels are as listed."""
        if self.level_breaks:
            for placed in self.level_breaks:
                play = sum(self.level_length(i) for i in range(placed["after_level"]))
                yield play, placed["minutes"] * 60
        elif self.break_every_minutes:
            every, pause = self.break_every_minutes * 60, self.break_minutes * 60
            for number in itertools.count(1):
                yield number * every, pause

    def _break_at(self, elapsed: float) -> tuple[float, float | None]:
        """Seconds of play after ``elapsed`` seconds since the start, and when the break
        in progress then ends (seconds since the start; None when play is on)."""
        paused = 0.0
        for play, pause in self._breaks():
            begins = play + paused
            if elapsed < begins:
                break
            if elapsed < begins + pause:
                return play, begins + pause
            paused += pause
        return elapsed - paused, None

    def play_seconds(self, moment: datetime) -> float:
        """Seconds of play since the start at ``moment``: the clock stops during breaks."""
        return self._break_at(self._clock_seconds(moment))[0]

    def break_ends_at(self, moment: datetime) -> datetime | None:
        """When the break in progress at ``moment`` ends; None when play is on."""
        if self.started_at is None:
            return None
        ends = self._break_at(self._clock_seconds(moment))[1]
        return None if ends is None else self._moment_of(ends)

    def _clock_seconds(self, moment: datetime) -> float:
        """Seconds on the tournament's clock at ``moment``: since the start, plus any
        run ahead (rule 33), breaks included."""
        assert self.started_at is not None
        return max(0.0, (moment - self.started_at).total_seconds() + self.clock_ahead_seconds)

    def _moment_of(self, clock_seconds: float) -> datetime:
        """When the tournament's clock reads ``clock_seconds`` (``_clock_seconds``'s inverse)."""
        assert self.started_at is not None
        return self.started_at + timedelta(seconds=clock_seconds - self.clock_ahead_seconds)

    def _wall_seconds(self, play_seconds: float, *, past_breaks: bool = False) -> float:
        """Seconds on the clock when ``play_seconds`` of play have passed (breaks added).
        A level ending when a break begins ends then (the next hand comes after it),
        unless ``past_breaks``: then the clock reads the break's end."""
        paused = 0.0
        for play, pause in self._breaks():
            if play > play_seconds or (play == play_seconds and not past_breaks):
                break
            paused += pause
        return play_seconds + paused

    def level_at(self, moment: datetime) -> tuple[int, engine.BlindLevel]:
        """The level in play at ``moment`` (engine's level_at, on this SNG's clock)."""
        assert self.started_at is not None
        elapsed = self.play_seconds(moment)
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
        return self._moment_of(self._wall_seconds(seconds))

    def run_ahead_to_next_level(self, moment: datetime) -> bool:
        """Move the clock to the start of the level after the one in play at ``moment``,
        past any break between them (rule 33: every player left is away). False at the
        last level, which lasts for ever. The caller saves ``clock_ahead_seconds``."""
        index = self.level_at(moment)[0]
        if index >= len(self.blind_structure.levels) - 1:
            return False
        play = sum(self.level_length(i) for i in range(index + 1))
        # A millisecond past the level's start: the sums' rounding must not leave the
        # clock a hair short of it.
        target = self._wall_seconds(play, past_breaks=True) + 0.001
        self.clock_ahead_seconds += max(0.0, target - self._clock_seconds(moment))
        return True

"""A scheduled tournament's settings as one frozen value: built by the staff's and the
club admins' forms, by the API's bodies and by scripts, checked once when it is made
(each refusal a ``BadSettings`` naming the setting), then handed to the scheduling
service (``tournaments/services/schedule.py``), which only adds what needs the database.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

import engine
from tables.models import MAX_SEATS, MIN_SEATS, Table
from tournaments.errors import BadSettings

MAX_ENTRANTS = 1000
MAX_LEVELS = 60
MAX_LEVEL_MINUTES = 240
MAX_BREAK_MINUTES = 60
MAX_NAME = 80
MAX_REBUYS = 20  # per player
SCOPE_PATTERN = r"^(site|club:[1-9][0-9]*)$"
_SCOPE = re.compile(SCOPE_PATTERN)


def _whole(value: Any, low: int, high: int, code: str, what: str, number: int | None = None) -> int:
    if type(value) is not int or not low <= value <= high:
        message = f"{what} must be a whole number from {low:,} to {high:,}."
        raise BadSettings(code, message, number)
    return value


def clean_levels(levels: Sequence[Any]) -> list[dict[str, Any]]:
    """Custom levels as stored: blinds and antes never fall, each level differs from
    the one before, minutes from 1 to 240."""
    if not isinstance(levels, list | tuple) or not 1 <= len(levels) <= MAX_LEVELS:
        raise BadSettings("bad_levels", f"Give from 1 to {MAX_LEVELS} blind levels.")
    cleaned: list[dict[str, Any]] = []
    for number, level in enumerate(levels, start=1):
        if not isinstance(level, dict) or not {"small_blind", "big_blind", "minutes"} <= set(level):
            raise BadSettings(
                "bad_levels",
                f"Level {number} needs a small blind, a big blind and minutes.",
                number,
            )
        what = f"Level {number}'s"
        small = _whole(level["small_blind"], 1, 10**9, "bad_levels", f"{what} small blind", number)
        big = _whole(level["big_blind"], small, 10**9, "bad_levels", f"{what} big blind", number)
        ante = _whole(level.get("ante", 0), 0, big, "bad_levels", f"{what} ante", number)
        minutes = level["minutes"]
        if type(minutes) not in (int, float) or not 1 <= minutes <= MAX_LEVEL_MINUTES:
            raise BadSettings(
                "bad_levels", f"Level {number} lasts from 1 to {MAX_LEVEL_MINUTES} minutes.", number
            )
        current = {"small_blind": small, "big_blind": big, "ante": ante, "minutes": minutes}
        if cleaned:
            before = cleaned[-1]
            blinds = ("small_blind", "big_blind", "ante")
            if any(current[k] < before[k] for k in blinds) or all(
                current[k] == before[k] for k in blinds
            ):
                raise BadSettings(
                    "bad_levels",
                    f"Level {number}'s blinds must rise above level {number - 1}'s.",
                    number,
                )
        cleaned.append(current)
    return cleaned


def clean_breaks(breaks: Sequence[Any], level_count: int) -> list[dict[str, int]]:
    """Breaks placed between levels, as stored: each after a level (1 = the first) and
    before the next one, in order, at most one between two levels, 1 to 60 minutes."""
    if not isinstance(breaks, list | tuple) or len(breaks) > MAX_LEVELS:
        raise BadSettings("bad_breaks", f"Give at most {MAX_LEVELS} breaks.")
    cleaned: list[dict[str, int]] = []
    for number, placed in enumerate(breaks, start=1):
        if not isinstance(placed, dict) or not {"after_level", "minutes"} <= set(placed):
            raise BadSettings(
                "bad_breaks", f"Break {number} needs a level it follows and minutes.", number
            )
        after = placed["after_level"]
        if type(after) is not int or not 1 <= after < level_count:
            raise BadSettings(
                "bad_breaks",
                f"Break {number} must come between two of the {level_count} levels.",
                number,
            )
        if cleaned and after <= cleaned[-1]["after_level"]:
            raise BadSettings(
                "bad_breaks",
                f"Break {number} comes after level {after}, where a break already is "
                "(or before): one break between two levels, in order.",
                number,
            )
        minutes = _whole(
            placed["minutes"],
            1,
            MAX_BREAK_MINUTES,
            "bad_breaks",
            f"Break {number}'s minutes",
            number,
        )
        cleaned.append({"after_level": after, "minutes": minutes})
    return cleaned


def clean_payouts(percentages: Sequence[Any] | None) -> list[int] | None:
    if percentages is None:
        return None
    if (
        not isinstance(percentages, list | tuple)
        or not percentages
        or any(type(p) is not int or p < 1 for p in percentages)
    ):
        raise BadSettings("bad_payouts", "Payouts are whole percentages of at least 1.")
    if sum(percentages) != 100:
        raise BadSettings("bad_payouts", "Payout percentages must add up to 100.")
    if list(percentages) != sorted(percentages, reverse=True):
        raise BadSettings("bad_payouts", "A place never pays more than the place above it.")
    return list(percentages)


@dataclass(frozen=True, kw_only=True)
class TournamentSettings:
    """A multi-table tournament's settings, every one checked (``BadSettings`` otherwise).

    ``levels`` (each ``small_blind``, ``big_blind``, optional ``ante``, ``minutes``)
    replace the built-in ``structure``; breaks of ``break_minutes`` come after every
    ``break_every_minutes`` of play (0: none), or ``breaks`` (each ``after_level``,
    ``minutes``) come between the levels they name. Rebuys (each the buy-in for the
    starting stack) are sold until the end of level ``rebuy_levels``, ``max_rebuys``
    per player, then an add-on of ``addon_chips`` for ``addon_price``. ``bounty`` of
    the buy-in rides on each player's head (``progressive_bounty``: rule 27).
    Instead of rebuys, a player out may enter again ``max_reentries`` times
    during late registration.
    ``points_scope`` is ``site`` or a club's (a club's own tournament is always paid
    in its points).
    Every table deals ``game``: ``nlhe`` (No-Limit Hold'em) or ``plo`` (Pot-Limit Omaha).
    Once made, ``name`` is stripped and ``levels``, ``breaks`` and
    ``payout_percentages`` are as stored.
    """

    name: str
    starts_at: datetime
    buy_in: int = 0
    seats_per_table: int = 9
    max_entrants: int = 60
    structure: str = "regular"
    game: str = Table.Game.NO_LIMIT_HOLDEM.value
    levels: Sequence[Any] | None = None
    starting_stack: int | None = None
    late_registration_levels: int = 0
    break_every_minutes: int = 0
    break_minutes: int = 0
    breaks: Sequence[Any] | None = None
    payout_percentages: Sequence[Any] | None = None
    points_scope: str = "site"
    level_seconds: float | None = None
    bounty: int = 0
    progressive_bounty: bool = False
    max_reentries: int = 0
    rebuy_levels: int = 0
    max_rebuys: int = 0
    addon_chips: int = 0
    addon_price: int = 0

    def __post_init__(self) -> None:
        self._check_basics()
        custom = clean_levels(self.levels) if self.levels is not None else None
        level_count = self._check_structure(custom)
        self._check_rebuys(level_count)
        self._check_bounty()
        placed = self._check_breaks(level_count)
        percentages = clean_payouts(self.payout_percentages)
        if not isinstance(self.points_scope, str) or not _SCOPE.match(self.points_scope):
            raise BadSettings("bad_points_scope", 'Points come from "site" or "club:<id>".')
        # Frozen from here on: what was given, as it will be stored.
        object.__setattr__(self, "name", self.name.strip())
        object.__setattr__(self, "levels", custom)
        object.__setattr__(self, "breaks", placed)
        object.__setattr__(self, "payout_percentages", percentages)

    def _check_basics(self) -> None:
        name, starts_at = self.name, self.starts_at
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME:
            raise BadSettings(
                "bad_name", f"Give the tournament a name of 1 to {MAX_NAME} characters."
            )
        if not isinstance(starts_at, datetime) or timezone.is_naive(starts_at):
            raise BadSettings("bad_starts_at", "Give the start as a date and time with its zone.")
        if starts_at <= timezone.now():
            raise BadSettings("bad_starts_at", "The start must be in the future.")
        _whole(self.buy_in, 0, 10**9, "bad_buy_in", "The buy-in")
        _whole(self.seats_per_table, MIN_SEATS, MAX_SEATS, "bad_seats", "Seats per table")
        _whole(self.max_entrants, 2, MAX_ENTRANTS, "bad_max_entrants", "The most entrants")
        if self.game not in Table.Game.values:
            raise BadSettings(
                "bad_game", "The game is No-Limit Hold'em (nlhe) or Pot-Limit Omaha (plo)."
            )
        if self.structure not in engine.STRUCTURES:
            names = ", ".join(engine.STRUCTURES)
            raise BadSettings(
                "bad_structure", f"The structure is one of {names}, or custom levels."
            )

    def _check_structure(self, custom: list[dict[str, Any]] | None) -> int:
        """Check the stack and late registration against the levels; their number."""
        level_count = len(custom) if custom else len(engine.STRUCTURES[self.structure].levels)
        first_big_blind = custom[0]["big_blind"] if custom else 20
        if self.starting_stack is not None:
            least = 2 * first_big_blind
            _whole(self.starting_stack, least, 10**9, "bad_starting_stack", "The starting stack")
        _whole(
            self.late_registration_levels,
            0,
            level_count,
            "bad_late_registration",
            "Late registration",
        )
        return level_count

    def _check_rebuys(self, level_count: int) -> None:
        """Rebuys for the buy-in until the end of a level before the last, a most per
        player; an add-on only with rebuys (docs/tournaments.md, "Rebuys and add-ons")."""
        _whole(self.rebuy_levels, 0, level_count - 1, "bad_rebuys", "The rebuy period's levels")
        _whole(self.max_rebuys, 0, MAX_REBUYS, "bad_rebuys", "Rebuys per player")
        if (self.rebuy_levels == 0) != (self.max_rebuys == 0):
            raise BadSettings(
                "bad_rebuys", "Give both the rebuy period's levels and the rebuys per player."
            )
        _whole(self.addon_chips, 0, 10**9, "bad_add_on", "The add-on's chips")
        _whole(self.addon_price, 0, 10**9, "bad_add_on", "The add-on's price")
        if self.addon_chips and not self.rebuy_levels:
            raise BadSettings("bad_add_on", "An add-on comes at the end of a rebuy period.")
        if self.addon_price and not self.addon_chips:
            raise BadSettings("bad_add_on", "Give the add-on's chips with its price.")
        _whole(self.max_reentries, 0, MAX_REBUYS, "bad_reentries", "Re-entries per player")
        if self.max_reentries and self.rebuy_levels:
            raise BadSettings("bad_reentries", "Offer re-entries or rebuys, not both.")
        if self.max_reentries and not self.late_registration_levels:
            raise BadSettings(
                "bad_reentries", "Players re-enter during late registration: give it levels."
            )

    def _check_bounty(self) -> None:
        """A knockout's bounty is part of the buy-in (docs/rules.md, rules 26 and 27)."""
        _whole(self.bounty, 0, self.buy_in, "bad_bounty", "The bounty")
        if not isinstance(self.progressive_bounty, bool):
            raise BadSettings("bad_bounty", "Say whether the knockout is progressive: yes or no.")
        if self.progressive_bounty and not self.bounty:
            raise BadSettings("bad_bounty", "A progressive knockout needs a bounty.")

    def _check_breaks(self, level_count: int) -> list[dict[str, int]] | None:
        """The breaks placed between levels, as stored (None: none, or every so often)."""
        every, minutes = self.break_every_minutes, self.break_minutes
        _whole(every, 0, MAX_LEVEL_MINUTES, "bad_breaks", "Minutes between breaks")
        _whole(minutes, 0, MAX_BREAK_MINUTES, "bad_breaks", "A break's minutes")
        if (every == 0) != (minutes == 0):
            raise BadSettings(
                "bad_breaks", "Give both how often breaks come and how long they last."
            )
        if 0 < every < 10:
            raise BadSettings("bad_breaks", "Breaks come at most every 10 minutes.")
        placed = clean_breaks(self.breaks, level_count) if self.breaks else None
        if placed and every:
            raise BadSettings(
                "bad_breaks",
                "Give breaks between levels or a break every so many minutes, not both.",
            )
        return placed

"""Scheduling a multi-table tournament: every setting checked, then one row and its
start task (queued for ``starts_at``; the beat sweep starts any whose task was lost)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

import engine
from tables.models import MAX_SEATS, MIN_SEATS
from tournaments import broadcast
from tournaments.errors import BadSettings
from tournaments.models import Club, Tournament

MAX_ENTRANTS = 1000
MAX_LEVELS = 60
MAX_LEVEL_MINUTES = 240
MAX_BREAK_MINUTES = 60
MAX_NAME = 80
SCOPE_PATTERN = r"^(site|club:[1-9][0-9]*)$"
_SCOPE = re.compile(SCOPE_PATTERN)

StartScheduler = Any  # (tournament id, when) -> None, set by tournaments/tasks.py
_start_scheduler: StartScheduler = None


def set_start_scheduler(scheduler: StartScheduler) -> None:
    """Who queues a tournament's start (``tournaments/tasks.py``, at app ready)."""
    global _start_scheduler
    _start_scheduler = scheduler


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


def schedule_tournament(
    *,
    name: str,
    starts_at: datetime,
    buy_in: int = 0,
    seats_per_table: int = 9,
    max_entrants: int = 60,
    structure: str = "regular",
    levels: Sequence[Any] | None = None,
    starting_stack: int | None = None,
    late_registration_levels: int = 0,
    break_every_minutes: int = 0,
    break_minutes: int = 0,
    breaks: Sequence[Any] | None = None,
    payout_percentages: Sequence[Any] | None = None,
    points_scope: str = "site",
    level_seconds: float | None = None,
    club: Club | None = None,
    now: datetime | None = None,
) -> Tournament:
    """A multi-table tournament taking registrations until ``starts_at``.

    ``levels`` (each ``small_blind``, ``big_blind``, optional ``ante``,
    ``minutes``) replace the built-in ``structure``; breaks of
    ``break_minutes`` come after every ``break_every_minutes`` of play (0: none), or
    ``breaks`` (each ``after_level``, ``minutes``) come between the levels they name.
    A ``club``'s tournament is paid in the club's points and seen by its members only.
    Refuses a bad setting with ``BadSettings`` (its code names it) and saves nothing.
    """
    now = now or timezone.now()
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME:
        raise BadSettings("bad_name", f"Give the tournament a name of 1 to {MAX_NAME} characters.")
    if not isinstance(starts_at, datetime) or timezone.is_naive(starts_at) or starts_at <= now:
        raise BadSettings("bad_starts_at", "The start must be a time (with a zone) still to come.")
    _whole(buy_in, 0, 10**9, "bad_buy_in", "The buy-in")
    _whole(seats_per_table, MIN_SEATS, MAX_SEATS, "bad_seats", "Seats per table")
    _whole(max_entrants, 2, MAX_ENTRANTS, "bad_max_entrants", "The most entrants")
    if structure not in engine.STRUCTURES:
        names = ", ".join(engine.STRUCTURES)
        raise BadSettings("bad_structure", f"The structure is one of {names}, or custom levels.")
    custom = clean_levels(levels) if levels is not None else None
    level_count = len(custom) if custom else len(engine.STRUCTURES[structure].levels)
    first_big_blind = custom[0]["big_blind"] if custom else 20
    if starting_stack is not None:
        least = 2 * first_big_blind
        _whole(starting_stack, least, 10**9, "bad_starting_stack", "The starting stack")
    _whole(late_registration_levels, 0, level_count, "bad_late_registration", "Late registration")
    _whole(break_every_minutes, 0, MAX_LEVEL_MINUTES, "bad_breaks", "Minutes between breaks")
    _whole(break_minutes, 0, MAX_BREAK_MINUTES, "bad_breaks", "A break's minutes")
    if (break_every_minutes == 0) != (break_minutes == 0):
        raise BadSettings("bad_breaks", "Give both how often breaks come and how long they last.")
    if 0 < break_every_minutes < 10:
        raise BadSettings("bad_breaks", "Breaks come at most every 10 minutes.")
    placed = clean_breaks(breaks, level_count) if breaks else None
    if placed and break_every_minutes:
        raise BadSettings(
            "bad_breaks", "Give breaks between levels or a break every so many minutes, not both."
        )
    percentages = clean_payouts(payout_percentages)
    if not isinstance(points_scope, str) or not _SCOPE.match(points_scope):
        raise BadSettings("bad_points_scope", 'Points come from "site" or "club:<id>".')
    if club is None and points_scope != "site":  # staff naming a club's points: its tournament
        club = Club.objects.filter(pk=int(points_scope.removeprefix("club:"))).first()
        if club is None:
            raise BadSettings("bad_points_scope", "There is no such club.")
    with transaction.atomic():
        tournament = Tournament.objects.create(
            kind=Tournament.Kind.MTT,
            name=name.strip(),
            starts_at=starts_at,
            buy_in=buy_in,
            seats=seats_per_table,
            max_entrants=max_entrants,
            structure=structure,
            custom_levels=custom,
            starting_stack=starting_stack,
            late_registration_levels=late_registration_levels,
            break_every_minutes=break_every_minutes,
            break_minutes=break_minutes,
            level_breaks=placed,
            payout_percentages=percentages,
            points_scope=club.scope if club is not None else points_scope,
            club=club,
            level_seconds=level_seconds or settings.TOURNAMENTS_LEVEL_SECONDS or None,
        )
        scheduler, tournament_id = _start_scheduler, tournament.pk
        if scheduler is not None:
            transaction.on_commit(lambda: scheduler(tournament_id, starts_at))
        broadcast.lobby_update(tournament.pk)
    return tournament

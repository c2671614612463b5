"""Scheduling a multi-table tournament from its checked settings
(``tournaments/tournament_settings.py``): one row and its start task (queued for
``starts_at``; the beat sweep starts any whose task was lost)."""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings
from django.db import transaction

from tournaments import broadcast
from tournaments.errors import BadSettings
from tournaments.models import Club, Tournament, TournamentSeries
from tournaments.tournament_settings import TournamentSettings

StartScheduler = Any  # (tournament id, when) -> None, set by tournaments/tasks.py
_start_scheduler: StartScheduler = None


def set_start_scheduler(scheduler: StartScheduler) -> None:
    """Who queues a tournament's start (``tournaments/tasks.py``, at app ready)."""
    global _start_scheduler
    _start_scheduler = scheduler


def paying_club(points_scope: str) -> Club | None:
    """The club whose points ``points_scope`` names (None: the site's), or
    ``BadSettings`` when there is no such club. A read: forms ask it too."""
    if points_scope == "site":
        return None
    club = Club.objects.filter(pk=int(points_scope.removeprefix("club:"))).first()
    if club is None:
        raise BadSettings("bad_points_scope", "There is no such club.")
    return club


def schedule_tournament(
    *,
    settings: TournamentSettings,
    club: Club | None = None,
    series: TournamentSeries | None = None,
) -> Tournament:
    """A multi-table tournament taking registrations until ``settings.starts_at``
    (an occurrence of ``series``, when given: ``tournaments/services/series.py``).

    A ``club``'s tournament is paid in the club's points and seen by its members only;
    staff naming a club's points scope schedule that club's tournament. Refuses a
    club that does not exist with ``BadSettings`` and saves nothing.
    """
    if club is None:
        club = paying_club(settings.points_scope)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            kind=Tournament.Kind.MTT,
            name=settings.name,
            starts_at=settings.starts_at,
            buy_in=settings.buy_in,
            seats=settings.seats_per_table,
            max_entrants=settings.max_entrants,
            structure=settings.structure,
            game=settings.game,
            custom_levels=settings.levels,
            starting_stack=settings.starting_stack,
            late_registration_levels=settings.late_registration_levels,
            bounty=settings.bounty,
            is_progressive_bounty=settings.progressive_bounty,
            max_reentries=settings.max_reentries,
            rebuy_levels=settings.rebuy_levels,
            max_rebuys=settings.max_rebuys,
            addon_chips=settings.addon_chips,
            addon_price=settings.addon_price,
            break_every_minutes=settings.break_every_minutes,
            break_minutes=settings.break_minutes,
            level_breaks=settings.breaks,
            payout_percentages=settings.payout_percentages,
            points_scope=club.scope if club is not None else settings.points_scope,
            club=club,
            series=series,
            level_seconds=settings.level_seconds
            or django_settings.TOURNAMENTS_LEVEL_SECONDS
            or None,
        )
        scheduler, tournament_id, starts_at = _start_scheduler, tournament.pk, settings.starts_at
        if scheduler is not None:
            transaction.on_commit(lambda: scheduler(tournament_id, starts_at))
        broadcast.lobby_update(tournament.pk)
    return tournament

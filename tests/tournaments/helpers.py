"""Helpers for tournament tests: SNGs set up through the services, points counted."""

from __future__ import annotations

from typing import Any

from django.db.models import Sum

from accounts.models import PointsEntry
from tournaments import services
from tournaments.models import Tournament

PASSWORD = "correct-horse-battery-staple"


def members(make_user: Any, count: int, prefix: str = "player") -> list[Any]:
    return [make_user(f"{prefix}{n}") for n in range(count)]


def sng(structure: str = "turbo", buy_in: int = 100) -> Tournament:
    """The lobby's open SNG of that kind (opened if there is none)."""
    waiting = Tournament.objects.filter(
        kind="sng", status="registering", structure=structure, buy_in=buy_in
    ).first()
    return waiting or services.sng_open(structure=structure, buy_in=buy_in)


def register(tournament: Tournament, users: list[Any]) -> Tournament:
    for user in users:
        services.tournament_register(tournament_id=tournament.pk, user=user)
    return Tournament.objects.get(pk=tournament.pk)


def moved_for(tournament: Tournament) -> int:
    """Points the ledger moved for ``tournament``: zero once it is over."""
    rows = PointsEntry.objects.filter(tournament=tournament)
    return rows.aggregate(total=Sum("amount"))["total"] or 0


def balance_total() -> int:
    """Every balance, as the ledger adds it up (welcome grants included)."""
    return PointsEntry.objects.aggregate(total=Sum("amount"))["total"] or 0

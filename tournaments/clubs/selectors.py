"""Reads of a club for its page and its API: members (with balances for those who may
see them), who waits to join or is banned, and its tournaments."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from accounts.models import PointsAccount
from tables.snapshot import iso
from tournaments.models import Club, Membership, Tournament, TournamentSeries
from tournaments.selectors import summary

CLUB_RESULTS_SHOWN = 20


def club_members(club: Club, viewer: Membership) -> list[dict[str, Any]]:
    """The club's members (owner, admins, then by joining): balances for admins, and
    each member's own."""
    balances = dict(
        PointsAccount.objects.filter(scope=club.scope).values_list("user_id", "balance")
    )
    order: dict[str, int] = {"owner": 0, "admin": 1, "member": 2}
    found = club.memberships.filter(status=Membership.Status.ACTIVE).select_related("user")
    rows = []
    for membership in sorted(found, key=lambda m: (order[m.role], m.joined_at or m.created_at)):
        row: dict[str, Any] = {
            "username": membership.user.username,
            "name": membership.user.public_name,
            "role": membership.role,
            "joined_at": iso(membership.joined_at),
        }
        if viewer.is_admin or membership.user_id == viewer.user_id:
            row["balance"] = int(balances.get(membership.user_id, 0))
        rows.append(row)
    return rows


def club_balances(club: Club) -> list[int]:
    """Every active member's club points, smallest first (no names: the schedule page
    counts who can afford a buy-in from these)."""
    members = club.memberships.filter(status=Membership.Status.ACTIVE, user__is_active=True)
    held = dict(
        PointsAccount.objects.filter(scope=club.scope, user__in=members.values("user")).values_list(
            "user_id", "balance"
        )
    )
    return sorted(
        int(held.get(user_id, 0)) for user_id in members.values_list("user_id", flat=True)
    )


def club_inviter(club: Club) -> Any:
    """Who the invitation page names: the member who made the current link while they
    are still in the club, else the owner."""
    maker = club.invite_made_by
    is_still_in = (
        maker is not None
        and maker.is_active
        and club.memberships.filter(user=maker, status=Membership.Status.ACTIVE).exists()
    )
    if is_still_in:
        return maker
    owner = club.memberships.filter(role=Membership.Role.OWNER).select_related("user").first()
    return owner.user if owner is not None else None


def club_waiting(club: Club, status: str) -> list[dict[str, Any]]:
    """Who asked to join (``pending``) or is banned (``banned``): admins see these."""
    found = club.memberships.filter(status=status).select_related("user").order_by("created_at")
    return [
        {"username": m.user.username, "name": m.user.public_name, "since": iso(m.created_at)}
        for m in found
    ]


def club_tournaments(club: Club, now: datetime) -> dict[str, list[dict[str, Any]]]:
    """The club's tournaments: upcoming (soonest first), running, and the latest results."""
    found = Tournament.objects.filter(club=club)
    upcoming = (
        found.filter(status=Tournament.Status.REGISTERING)
        .select_related("series")
        .order_by("starts_at", "pk")
    )
    running = found.filter(status=Tournament.Status.RUNNING).order_by("started_at", "pk")
    finished = found.filter(status=Tournament.Status.FINISHED).order_by("-ended_at", "-pk")
    return {
        "upcoming": [_with_repeats(t, now) for t in upcoming],
        "running": [summary(t, now) for t in running],
        "results": [summary(t, now) for t in finished[:CLUB_RESULTS_SHOWN]],
    }


def _with_repeats(tournament: Tournament, now: datetime) -> dict[str, Any]:
    """A listed game's summary, saying how often it repeats (None: a one-off, or the
    last game of a stopped series)."""
    series = tournament.series
    repeats = series.repeats if series is not None and not series.is_stopped else None
    return summary(tournament, now) | {"repeats": repeats}


def club_series(club: Club) -> list[dict[str, Any]]:
    """The club's repeating tournaments still repeating: how often, the game listed
    now, and the start of the one after it (scheduled once the listed one starts)."""
    found = TournamentSeries.objects.filter(club=club, stopped_at=None).order_by("name", "pk")
    rows = []
    for series in found:
        listed = (
            series.occurrences.filter(status=Tournament.Status.REGISTERING)
            .order_by("starts_at")
            .first()
        )
        then = series.next_start(listed.starts_at) if listed and listed.starts_at else None
        rows.append(
            {
                "id": series.pk,
                "name": series.name,
                "repeats": series.repeats,
                "listed": listed,
                "then": then,
            }
        )
    return rows

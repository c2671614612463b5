"""A club's leaderboard for a season: tournaments played, wins, cashes, points won, ROI.

Only finished tournaments of at least ``MIN_FIELD`` entrants count (a heads-up
match between two friends is not a tournament worth ranking). Points won are
prizes minus buy-ins; ROI is that over the buy-ins (POKER_RULES' statistics).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Count, Q, Sum
from django.utils import timezone

from tournaments.models import Club, Entry, Tournament

MIN_FIELD = 4
SEASONS = {"all": "All time", "year": "This year", "month": "This month"}


def season_start(season: str, now: datetime) -> datetime | None:
    """When ``season`` began, in the site's time zone (None: all time)."""
    local = timezone.localtime(now).replace(hour=0, minute=0, second=0, microsecond=0)
    if season == "month":
        return local.replace(day=1)
    if season == "year":
        return local.replace(month=1, day=1)
    return None


def counted_tournaments(club: Club, season: str, now: datetime) -> Any:
    """The club's finished tournaments of the season with ``MIN_FIELD`` entrants or more
    (by when they ended)."""
    found = (
        Tournament.objects.filter(club=club, status=Tournament.Status.FINISHED)
        .annotate(field=Count("entries"))
        .filter(field__gte=MIN_FIELD)
    )
    start = season_start(season, now)
    if start is not None:
        found = found.filter(ended_at__gte=start)
    return found


def club_leaderboard(*, club: Club, season: str, now: datetime) -> list[dict[str, Any]]:
    """One row per member who played, best first: points won, then wins, then cashes."""
    rows = (
        Entry.objects.filter(
            tournament__in=counted_tournaments(club, season, now).values("pk"),
            user__isnull=False,
        )
        .values("user_id", "user__username", "user__display_name")
        .annotate(  # tournaments counted once: a re-entry is another entry of the same one
            played=Count("tournament", distinct=True),
            wins=Count("tournament", filter=Q(place=1), distinct=True),
            cashes=Count("tournament", filter=Q(prize__gt=0), distinct=True),
            paid=Sum("paid"),  # buy-ins, re-entries, rebuys and add-ons
            prizes=Sum("prize"),
            bounties=Sum("bounties_won"),
        )
    )
    board: list[dict[str, Any]] = []
    for row in rows:
        paid = int(row["paid"] or 0)
        won = int(row["prizes"] or 0) + int(row["bounties"] or 0) - paid
        board.append(
            {
                "username": row["user__username"],
                "name": row["user__display_name"] or row["user__username"],
                "played": row["played"],
                "wins": row["wins"],
                "cashes": row["cashes"],
                "itm": round(row["cashes"] / row["played"] * 100, 1),
                "points_won": won,
                "roi": round(won / paid * 100, 1) if paid else None,
            }
        )
    board.sort(key=lambda r: (-r["points_won"], -r["wins"], -r["cashes"], r["name"].lower()))
    return [{**entry, "rank": rank} for rank, entry in enumerate(board, start=1)]

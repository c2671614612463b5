"""The clubs and tournament entries in a member's data zip, and their name in
tournament results once they close their account (accounts/data_export.py,
accounts/closing.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from accounts.data_export import as_json
from tournaments.models import Entry, Membership


def clubs_and_entries_of(user: Any) -> Iterable[tuple[str, Iterable[str]]]:
    memberships = Membership.objects.filter(user=user).select_related("club").order_by("pk")
    clubs = [
        {
            "club": m.club.name,
            "slug": m.club.slug,
            "role": m.get_role_display(),
            "status": m.get_status_display(),
            "asked_at": m.created_at,
            "joined_at": m.joined_at,
        }
        for m in memberships
    ]
    yield "clubs.json", as_json(clubs)
    entries = Entry.objects.filter(user=user).select_related("tournament", "tournament__club")
    yield "tournaments.json", as_json([_entry(e) for e in entries.order_by("registered_at")])


def _entry(entry: Entry) -> dict[str, Any]:
    tournament = entry.tournament
    return {
        "tournament": tournament.pk,
        "title": tournament.title,
        "club": tournament.club.name if tournament.club else None,
        "status": tournament.get_status_display(),
        "started_at": tournament.started_at,
        "registered_at": entry.registered_at,
        "name": entry.name,
        "buy_in": entry.buy_in,
        "paid": entry.paid,
        "rebuys": entry.rebuys,
        "has_added_on": entry.has_added_on,
        "place": entry.place,
        "prize": entry.prize,
        "bounties_won": entry.bounties_won,
    }


def names_forget(user: Any, label: str) -> int:
    """``user``'s entries show ``label`` in results and places from now on."""
    return Entry.objects.filter(user=user).update(name=label)

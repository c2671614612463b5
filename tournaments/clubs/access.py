"""Who sees what of a club: its tournaments and tables are its members' (and, for a
tournament, its entrants'); admins manage it. Reads only, each refusal a ``ClubError``."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from tournaments.clubs.errors import AdminsOnly, Banned, MembersOnly
from tournaments.models import Club, Membership, Tournament


def membership_of(club: Club | int, user: Any) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    club_id = club if isinstance(club, int) else club.pk
    return Membership.objects.filter(club_id=club_id, user=user).first()


def require_member(club: Club | int, user: Any) -> Membership:
    """The member's active membership, else the refusal a non-member gets."""
    membership = membership_of(club, user)
    if membership is None or membership.status != Membership.Status.ACTIVE:
        is_banned = membership is not None and membership.status == Membership.Status.BANNED
        raise Banned() if is_banned else MembersOnly()
    return membership


def require_admin(club: Club | int, user: Any) -> Membership:
    membership = require_member(club, user)
    if not membership.is_admin:
        raise AdminsOnly()
    return membership


def check_can_see(tournament: Tournament, user: Any) -> None:
    """Refuse (``MembersOnly``) a club's tournament to anyone but its members and its
    entrants (a member removed in the middle of it still plays it out)."""
    if tournament.club_id is None:
        return
    try:
        require_member(tournament.club_id, user)
    except (MembersOnly, Banned):
        if not (user.is_authenticated and tournament.entries.filter(user=user).exists()):
            raise


def clubs_of(user: Any) -> QuerySet[Membership, int]:
    """The ids of the clubs whose tournaments ``user`` sees (an active member's), as a
    subquery: filtering by it costs no query of its own."""
    if user is None or not user.is_authenticated:
        return Membership.objects.none().values_list("club_id", flat=True)
    found = Membership.objects.filter(user=user, status=Membership.Status.ACTIVE)
    return found.values_list("club_id", flat=True)

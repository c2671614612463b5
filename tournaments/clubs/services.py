"""Clubs: creating one, joining (by invitation or by asking), roles, removals and bans,
club points (an admin's adjustment, a grant to every member, the points given on
joining), and scheduling the club's tournaments.

Each function owns its transaction and locks the club's row first, so two admins
acting on one member are served one after the other; then, where they are
touched, tournament rows, tables and points accounts (the site's lock order).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.text import slugify

from accounts import points
from accounts.models import PointsEntry
from tournaments.clubs.access import membership_of, require_admin, require_member
from tournaments.clubs.errors import (
    AlreadyAsked,
    AlreadyMember,
    BadClubRequest,
    BadInvitation,
    Banned,
    ClubNotFound,
    NoSuchMember,
    OwnerOnly,
)
from tournaments.models import Club, Membership, Tournament, TournamentSeries
from tournaments.services.registration import check_member, refund_entry
from tournaments.services.schedule import schedule_tournament
from tournaments.services.series import series_start
from tournaments.tournament_settings import TournamentSettings

MAX_NAME = 60
MAX_DESCRIPTION = 280
MAX_NOTE = 200
MAX_CLUBS_OWNED = 10
MAX_ADJUSTMENT = 10**9
JOINING_NOTE = "Given on joining the club"
Active = Membership.Status.ACTIVE


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)


def _locked(slug: str) -> Club:
    club = Club.objects.select_for_update().filter(slug=slug).first()
    if club is None:
        raise ClubNotFound()
    return club


def _target(club: Club, username: Any) -> Membership:
    membership = (
        Membership.objects.select_related("user")
        .filter(club=club, user__username=username, user__is_active=True)
        .first()
        if isinstance(username, str)
        else None
    )
    if membership is None:
        raise NoSuchMember()
    return membership


def _unique_slug(name: str) -> str:
    base = slugify(name)[:60] or "club"
    slug, number = base, 1
    while Club.objects.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug


def club_create(*, user: Any, name: Any, description: Any = "") -> Club:
    """A new club, its creator the owner (a member owns at most ``MAX_CLUBS_OWNED``)."""
    check_member(user)
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME:
        raise BadClubRequest("bad_name", f"Give the club a name of 1 to {MAX_NAME} characters.")
    if not isinstance(description, str) or len(description.strip()) > MAX_DESCRIPTION:
        raise BadClubRequest(
            "bad_description", f"A club's description has at most {MAX_DESCRIPTION} characters."
        )
    with transaction.atomic():
        # Serialises a member's creations, so two at once cannot pass the limit.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        owned = Membership.objects.filter(user=user, role=Membership.Role.OWNER).count()
        if owned >= MAX_CLUBS_OWNED:
            raise BadClubRequest("too_many_clubs", f"You own {owned} clubs, the most there is.")
        club = Club.objects.create(
            name=name.strip(),
            slug=_unique_slug(name.strip()),
            description=description.strip(),
            invite_token=new_invite_token(),
            invite_made_by=user,
        )
        Membership.objects.create(
            club=club,
            user=user,
            role=Membership.Role.OWNER,
            status=Active,
            joined_at=club.created_at,
        )
    return club


def club_join(*, slug: str, user: Any, token: Any) -> Membership:
    """Join with the invitation link's token (also answers one's own request to join)."""
    check_member(user)
    with transaction.atomic():
        club = _locked(slug)
        if not isinstance(token, str) or not constant_time_compare(token, club.invite_token):
            raise BadInvitation()
        membership = membership_of(club, user)
        _check_may_join(membership)
        membership = membership or Membership(club=club, user=user)
        membership.status, membership.joined_at = Active, timezone.now()
        membership.save()
        _give_joining_points(club, user)
        return membership


def _check_may_join(membership: Membership | None) -> None:
    """Refuse a member already in the club or banned from it (one who asked may join)."""
    if membership is not None and membership.status == Membership.Status.BANNED:
        raise Banned()
    if membership is not None and membership.status == Active:
        raise AlreadyMember()


def club_ask(*, slug: str, user: Any) -> Membership:
    """Ask to join: an admin approves or declines."""
    check_member(user)
    with transaction.atomic():
        club = _locked(slug)
        membership = membership_of(club, user)
        _check_may_join(membership)
        if membership is not None:
            raise AlreadyAsked()
        return Membership.objects.create(club=club, user=user)


def club_answer(*, slug: str, admin: Any, username: Any, is_approved: bool) -> None:
    """An admin approves a request to join (a member from now) or declines it."""
    with transaction.atomic():
        club = _locked(slug)
        require_admin(club, admin)
        membership = _target(club, username)
        if membership.status != Membership.Status.PENDING:
            raise BadClubRequest("not_asking", "That person has not asked to join.")
        if not is_approved:
            membership.delete()
            return
        membership.status, membership.joined_at = Active, timezone.now()
        membership.save(update_fields=["status", "joined_at"])
        _give_joining_points(club, membership.user)


def _give_joining_points(club: Club, user: Any) -> None:
    """The club's points for a new member (club row locked), once per member: one who
    left or was removed and comes back gets none the second time."""
    if club.joining_points == 0:
        return
    given = PointsEntry.objects.filter(
        user=user, scope=club.scope, reason=PointsEntry.Reason.WELCOME
    )
    if not given.exists():
        points.points_move(
            user=user,
            amount=club.joining_points,
            reason=PointsEntry.Reason.WELCOME,
            scope=club.scope,
            note=JOINING_NOTE,
        )


def club_set_role(*, slug: str, owner: Any, username: Any, role: Any) -> None:
    """The owner makes a member an admin, or an admin a member again."""
    with transaction.atomic():
        club = _locked(slug)
        if require_member(club, owner).role != Membership.Role.OWNER:
            raise OwnerOnly()
        membership = _target(club, username)
        if role not in (Membership.Role.ADMIN, Membership.Role.MEMBER):
            raise BadClubRequest("bad_role", "A member's role is admin or member.")
        if membership.status != Active or membership.role == Membership.Role.OWNER:
            raise BadClubRequest("bad_role", "Only a member other than the owner gets a role.")
        membership.role = role
        membership.save(update_fields=["role"])


def club_remove(*, slug: str, admin: Any, username: Any, is_banned: bool = False) -> None:
    """An admin removes (or bans) a member: their registrations to the club's tournaments
    not yet started are refunded; points stay theirs. Only the owner removes an admin;
    nobody removes the owner. A ban keeps them from joining again."""
    with transaction.atomic():
        club = _locked(slug)
        acting = require_admin(club, admin)
        membership = _target(club, username)
        if membership.role == Membership.Role.OWNER:
            raise BadClubRequest("cannot_remove_owner", "Nobody removes the club's owner.")
        if membership.role == Membership.Role.ADMIN and acting.role != Membership.Role.OWNER:
            raise OwnerOnly("Only the club's owner removes an admin.")
        _unregister_everywhere(club, membership.user)
        if is_banned:
            membership.status, membership.role = Membership.Status.BANNED, Membership.Role.MEMBER
            membership.save(update_fields=["status", "role"])
        else:
            membership.delete()


def club_leave(*, slug: str, user: Any) -> None:
    """A member leaves (the owner cannot: the club would have nobody to run it)."""
    with transaction.atomic():
        club = _locked(slug)
        membership = require_member(club, user)
        if membership.role == Membership.Role.OWNER:
            raise BadClubRequest("owner_cannot_leave", "The owner cannot leave the club.")
        _unregister_everywhere(club, user)
        membership.delete()


def clubs_release(*, user: Any) -> int:
    """Before ``user``'s account is deleted or deactivated: each club they own passes
    to its longest-standing admin, or else to its longest-standing member, so the club
    keeps someone to run it; they stay a plain member until their account goes. A
    club with nobody else in it is left as it is. The limit on owned clubs is on
    creating them, so a successor may inherit past it. Returns how many clubs
    changed hands."""
    slugs = list(
        Club.objects.filter(memberships__user=user, memberships__role=Membership.Role.OWNER)
        .order_by("pk")
        .values_list("slug", flat=True)
    )
    passed = 0
    for slug in slugs:
        with transaction.atomic():
            club = _locked(slug)
            owner = membership_of(club, user)
            if owner is None or owner.role != Membership.Role.OWNER:
                continue  # handed on meanwhile
            successor = (
                Membership.objects.filter(club=club, status=Active, user__is_active=True)
                .exclude(user=user)
                .order_by("role", "joined_at", "pk")  # "admin" sorts before "member"
                .first()
            )
            if successor is None:
                continue
            owner.role = Membership.Role.MEMBER  # first: a club has one owner at a time
            owner.save(update_fields=["role"])
            successor.role = Membership.Role.OWNER
            successor.save(update_fields=["role"])
            passed += 1
    return passed


def club_reset_invitation(*, slug: str, admin: Any) -> Club:
    """A fresh invitation token: links with the old one stop working."""
    with transaction.atomic():
        club = _locked(slug)
        require_admin(club, admin)
        club.invite_token = new_invite_token()
        club.invite_made_by = admin
        club.save(update_fields=["invite_token", "invite_made_by"])
        return club


def club_points_adjust(
    *, slug: str, admin: Any, username: Any, amount: Any, reason: Any
) -> PointsEntry:
    """An admin credits (or, negative, debits) a member's club points, with the reason:
    one ledger row; a debit below zero is refused."""
    if type(amount) is not int or amount == 0 or abs(amount) > MAX_ADJUSTMENT:
        raise BadClubRequest(
            "bad_amount",
            f"The amount is a whole number of points, not 0, up to {MAX_ADJUSTMENT:,}.",
        )
    if not isinstance(reason, str) or not 1 <= len(reason.strip()) <= MAX_NOTE:
        raise BadClubRequest("bad_reason", f"Give the reason in 1 to {MAX_NOTE} characters.")
    with transaction.atomic():
        club = _locked(slug)
        require_admin(club, admin)
        membership = _target(club, username)
        if membership.status != Active:
            raise NoSuchMember()
        try:
            return points.points_move(
                user=membership.user,
                amount=amount,
                reason=PointsEntry.Reason.ADJUSTMENT,
                scope=club.scope,
                note=reason.strip(),
                actor=admin,
            )
        except points.NotEnoughPoints:
            balance = points.points_balance(user=membership.user, scope=club.scope)
            raise BadClubRequest(
                "not_enough_points",
                f"{membership.user.public_name} has {balance:,} club points: "
                f"a balance never goes below zero.",
            ) from None


def club_joining_points_set(*, slug: str, admin: Any, amount: Any) -> Club:
    """An admin sets the club points each new member is given on joining (0: none).
    Members who joined before keep what they have."""
    if type(amount) is not int or not 0 <= amount <= MAX_ADJUSTMENT:
        raise BadClubRequest(
            "bad_amount",
            f"Points given on joining are a whole number from 0 to {MAX_ADJUSTMENT:,}.",
        )
    with transaction.atomic():
        club = _locked(slug)
        require_admin(club, admin)
        club.joining_points = amount
        club.save(update_fields=["joining_points"])
        return club


def club_points_grant_all(*, slug: str, admin: Any, amount: Any, reason: Any) -> list[PointsEntry]:
    """An admin gives every active member (themselves included) the same club points,
    with the reason: one ledger row each, all in one transaction, so either every
    member has them or none does. Accounts are locked in member order (by user id)."""
    if type(amount) is not int or not 0 < amount <= MAX_ADJUSTMENT:
        raise BadClubRequest(
            "bad_amount", f"Give a whole number of points from 1 to {MAX_ADJUSTMENT:,}."
        )
    if not isinstance(reason, str) or not 1 <= len(reason.strip()) <= MAX_NOTE:
        raise BadClubRequest("bad_reason", f"Give the reason in 1 to {MAX_NOTE} characters.")
    with transaction.atomic():
        club = _locked(slug)
        require_admin(club, admin)
        members = (
            Membership.objects.filter(club=club, status=Active, user__is_active=True)
            .select_related("user")
            .order_by("user_id")
        )
        return [
            points.points_move(
                user=membership.user,
                amount=amount,
                reason=PointsEntry.Reason.ADJUSTMENT,
                scope=club.scope,
                note=reason.strip(),
                actor=admin,
            )
            for membership in members
        ]


def club_tournament_schedule(
    *,
    slug: str,
    admin: Any,
    settings: TournamentSettings,
    every_days: int | None = None,
    time_zone: str = "UTC",
) -> Tournament:
    """An admin schedules a club tournament, paid in the club's points (whatever points
    scope ``settings`` names); with ``every_days``, the first of a repeating one, at the
    same wall-clock time in ``time_zone`` each time."""
    with transaction.atomic():
        club = _locked(slug)
        require_admin(club, admin)
        if every_days is None:
            return schedule_tournament(settings=settings, club=club)
        return series_start(
            club=club, admin=admin, settings=settings, every_days=every_days, time_zone=time_zone
        )


def club_series_stop(*, slug: str, admin: Any, series_id: Any) -> TournamentSeries:
    """An admin stops a repeating tournament: no game after the one already listed,
    which stays as it is, its registrations with it. Stopping it again changes
    nothing."""
    with transaction.atomic():
        club = _locked(slug)
        require_admin(club, admin)
        series = (
            TournamentSeries.objects.select_for_update().filter(club=club, pk=series_id).first()
            if type(series_id) is int
            else None
        )
        if series is None:
            raise BadClubRequest("no_such_series", "This club has no such repeating tournament.")
        if series.stopped_at is None:
            series.stopped_at, series.stopped_by = timezone.now(), admin
            series.save(update_fields=["stopped_at", "stopped_by"])
        return series


def _unregister_everywhere(club: Club, user: Any) -> None:
    """Refund and drop the member's places in the club's tournaments yet to start
    (club row locked; each tournament's row locked next, as registration does)."""
    waiting = Tournament.objects.filter(
        club=club, status=Tournament.Status.REGISTERING, entries__user=user
    ).values_list("pk", flat=True)
    for tournament_id in sorted(waiting):
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        entry = tournament.entries.filter(user=user).first()
        if entry is not None:
            refund_entry(tournament, entry)

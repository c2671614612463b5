"""The club API: create a club, read one (members see members, tournaments and
repeating tournaments; admins every balance), join by invitation token (or ask),
admins' points (an adjustment, a grant to every member, the points given on joining),
scheduling, and stopping a repeating tournament. Refusals are 4xx JSON with a ``code``
and a ``message``; nothing changed (a service's refusal is answered by
``config/platform/api_errors.py``).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api import REFUSALS, bad_body
from tournaments.clubs import access, selectors, services
from tournaments.clubs.errors import ClubNotFound
from tournaments.clubs.serializers import (
    ClubCreateSerializer,
    ClubGrantSerializer,
    ClubJoiningPointsSerializer,
    ClubJoinSerializer,
    ClubPointsSerializer,
    ClubScheduleSerializer,
    ClubSerializer,
    JoinAskedSerializer,
    PointsAdjustedSerializer,
    PointsGrantedSerializer,
)
from tournaments.models import Club, Membership
from tournaments.selectors import summary
from tournaments.serializers import SCHEDULE_CODES, TournamentSerializer


def club_facts(club: Club, viewer: Membership) -> dict[str, Any]:
    """What a member reads of the club (admins: every balance and the invitation token),
    through ``ClubSerializer``: only the fields it names."""
    facts: dict[str, Any] = {
        "slug": club.slug,
        "name": club.name,
        "description": club.description,
        "your_role": viewer.role,
        "joining_points": club.joining_points,
        "members": selectors.club_members(club, viewer),
        "tournaments": selectors.club_tournaments(club, timezone.now()),
        "series": [
            {
                "id": row["id"],
                "name": row["name"],
                "repeats": row["repeats"],
                "listed_tournament": row["listed"].pk if row["listed"] else None,
                "next_starts_at": row["then"],
            }
            for row in selectors.club_series(club)
        ],
    }
    if viewer.is_admin:
        facts["invite_token"] = club.invite_token
        facts["pending"] = selectors.club_waiting(club, Membership.Status.PENDING)
    return dict(ClubSerializer(facts).data)


class ClubCreateView(APIView):
    """POST /api/clubs/: create a club; the caller is its owner (201)."""

    @extend_schema(
        operation_id="clubs_create",
        request=ClubCreateSerializer,
        responses={201: ClubSerializer, **REFUSALS},
    )
    def post(self, request: Request) -> Response:
        body = ClubCreateSerializer(data=request.data)
        if not body.is_valid():
            return bad_body(body.errors)
        club = services.club_create(user=request.user, **body.validated_data)
        viewer = access.require_member(club, request.user)
        return Response(club_facts(club, viewer), status=201)


class ClubDetailView(APIView):
    """GET /api/clubs/<slug>/: for its members only."""

    @extend_schema(operation_id="clubs_retrieve", responses={200: ClubSerializer, **REFUSALS})
    def get(self, request: Request, slug: str) -> Response:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise ClubNotFound()
        viewer = access.require_member(club, request.user)
        return Response(club_facts(club, viewer))


class ClubJoinView(APIView):
    """POST /api/clubs/<slug>/join/ with ``{"token": ...}``: join by the invitation link's
    token; without a token, ask to join (an admin answers; 202)."""

    @extend_schema(
        operation_id="clubs_join",
        request=ClubJoinSerializer,
        responses={200: ClubSerializer, 202: JoinAskedSerializer, **REFUSALS},
    )
    def post(self, request: Request, slug: str) -> Response:
        body = ClubJoinSerializer(data=request.data)
        if not body.is_valid():
            return bad_body(body.errors)
        token = body.validated_data.get("token")
        if token is None:
            services.club_ask(slug=slug, user=request.user)
            return Response(JoinAskedSerializer({"status": "pending"}).data, status=202)
        membership = services.club_join(slug=slug, user=request.user, token=token)
        return Response(club_facts(membership.club, membership))


class ClubPointsView(APIView):
    """POST /api/clubs/<slug>/points/ (admins): ``{"username", "amount", "reason"}``,
    a credit (or a debit, negative) of the member's club points."""

    @extend_schema(
        operation_id="clubs_points_adjust",
        request=ClubPointsSerializer,
        responses={201: PointsAdjustedSerializer, **REFUSALS},
    )
    def post(self, request: Request, slug: str) -> Response:
        body = ClubPointsSerializer(data=request.data)
        if not body.is_valid():
            return bad_body(body.errors)
        entry = services.club_points_adjust(slug=slug, admin=request.user, **body.validated_data)
        adjusted = {
            "username": body.validated_data["username"],
            "amount": entry.amount,
            "balance": entry.balance_after,
            "reason": entry.note,
            "at": entry.created_at.isoformat(),
        }
        return Response(PointsAdjustedSerializer(adjusted).data, status=201)


class ClubGrantView(APIView):
    """POST /api/clubs/<slug>/points/everyone/ (admins): ``{"amount", "reason"}``, the
    same club points for every member at once (one transaction)."""

    @extend_schema(
        operation_id="clubs_points_grant_everyone",
        request=ClubGrantSerializer,
        responses={201: PointsGrantedSerializer, **REFUSALS},
    )
    def post(self, request: Request, slug: str) -> Response:
        body = ClubGrantSerializer(data=request.data)
        if not body.is_valid():
            return bad_body(body.errors)
        given = services.club_points_grant_all(slug=slug, admin=request.user, **body.validated_data)
        granted = {
            "amount": body.validated_data["amount"],
            "members": len(given),
            "reason": given[0].note,  # an admin is a member: never nobody
            "at": given[0].created_at.isoformat(),
        }
        return Response(PointsGrantedSerializer(granted).data, status=201)


class ClubJoiningPointsView(APIView):
    """POST /api/clubs/<slug>/joining-points/ (admins): ``{"joining_points"}``, the club
    points each new member is given once, on joining; answers with the club."""

    @extend_schema(
        operation_id="clubs_joining_points_set",
        request=ClubJoiningPointsSerializer,
        responses={200: ClubSerializer, **REFUSALS},
    )
    def post(self, request: Request, slug: str) -> Response:
        body = ClubJoiningPointsSerializer(data=request.data)
        if not body.is_valid():
            return bad_body(body.errors)
        club = services.club_joining_points_set(
            slug=slug, admin=request.user, amount=body.validated_data["joining_points"]
        )
        return Response(club_facts(club, access.require_admin(club, request.user)))


class ClubTournamentsView(APIView):
    """POST /api/clubs/<slug>/tournaments/ (admins): schedule a club tournament, paid in
    the club's points (the fields of ``POST /api/tournaments/``; 201 with its summary)."""

    @extend_schema(
        operation_id="clubs_tournaments_schedule",
        request=ClubScheduleSerializer,
        responses={201: TournamentSerializer, **REFUSALS},
    )
    def post(self, request: Request, slug: str) -> Response:
        body = ClubScheduleSerializer(data=request.data)
        if not body.is_valid():
            return bad_body(body.errors, SCHEDULE_CODES)
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise ClubNotFound()
        access.require_admin(club, request.user)  # before the settings, as ever
        every_days, time_zone = body.repeat()
        tournament = services.club_tournament_schedule(
            slug=slug,
            admin=request.user,
            settings=body.settings(),
            every_days=every_days,
            time_zone=time_zone,
        )
        return Response(TournamentSerializer(summary(tournament)).data, status=201)


class ClubSeriesStopView(APIView):
    """POST /api/clubs/<slug>/series/<id>/stop/ (admins): the repeating tournament lists
    no game after the one already listed, which stays with its registrations; answers
    with the club. Stopping it again changes nothing."""

    @extend_schema(
        operation_id="clubs_series_stop", request=None, responses={200: ClubSerializer, **REFUSALS}
    )
    def post(self, request: Request, slug: str, series_id: int) -> Response:
        request.data  # noqa: B018 - no body is read, but a malformed one is still a 400
        services.club_series_stop(slug=slug, admin=request.user, series_id=series_id)
        club = Club.objects.get(slug=slug)
        return Response(club_facts(club, access.require_admin(club, request.user)))

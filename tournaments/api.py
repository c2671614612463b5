"""The tournament API: list, one tournament, register, unregister (session or token auth);
staff schedule a multi-table tournament with ``POST /api/tournaments/``.

Responses are the public summary the lobby shows (``tournaments.selectors.summary``):
no hand in play is read. A refusal is JSON with a ``code`` and a ``message``
and a 4xx status; nothing changed.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.serializers import ErrorSerializer
from tournaments import selectors, services
from tournaments.errors import TournamentError, TournamentNotFound
from tournaments.serializers import TournamentFilterSerializer, TournamentScheduleSerializer

LIST_LIMIT = 100
# Every tournament and club view may refuse so ({"code", "message"}; nothing changed).
REFUSALS = {
    status: OpenApiResponse(ErrorSerializer, description=description)
    for status, description in (
        (400, "A malformed body or a bad value: `bad_<field>` names it."),
        (401, "No credentials, or a bad token."),
        (
            403,
            "Not allowed here (`members_only`, `admins_only`, `banned`, `bad_token`, ...),"
            " or a session caller's write without its CSRF token.",
        ),
        (
            404,
            "No such tournament (`not_found`), club (`club_not_found`)"
            " or member (`no_such_member`).",
        ),
        (409, "Refused as things stand (`full`, `already_registered`, ...): the code says why."),
        (429, "Over the rate limit."),
    )
}


def refusal(error: TournamentError) -> Response:
    return Response({"code": error.code, "message": error.message}, status=error.status)


class TournamentListView(APIView):
    """GET /api/tournaments/?status=registering|running|finished (newest first, 100 at
    most): the site's, and those of the caller's clubs."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **REFUSALS})
    def get(self, request: Request) -> Response:
        query = TournamentFilterSerializer(data=request.query_params)
        if not query.is_valid():
            return Response(
                {
                    "code": "bad_status",
                    "message": "status must be registering, running or finished.",
                },
                status=400,
            )
        found = selectors.tournaments_list(
            status=query.validated_data.get("status"), viewer=request.user
        )
        return Response([selectors.summary(t) for t in found[:LIST_LIMIT]])

    @extend_schema(
        request=TournamentScheduleSerializer, responses={201: OpenApiTypes.OBJECT, **REFUSALS}
    )
    def post(self, request: Request) -> Response:
        """Staff only: schedule a multi-table tournament (its summary, 201)."""
        request.data  # noqa: B018 - parsing it refuses a malformed body before anything else
        if not request.user.is_staff:
            return Response(
                {"code": "staff_only", "message": "Only staff schedule tournaments."}, status=403
            )
        body = TournamentScheduleSerializer(data=request.data)
        if not body.is_valid():
            return bad_body(body.errors)
        settings = dict(body.validated_data)
        try:
            tournament = services.schedule_tournament(**settings)
        except TournamentError as error:
            return refusal(error)
        return Response(selectors.summary(tournament), status=201)


def bad_body(errors: Any) -> Response:
    """A 400 naming the first field a body got wrong (``bad_<field>``)."""
    field, problems = next(iter(errors.items()))
    return Response({"code": f"bad_{field}", "message": f"{field}: {_first(problems)}"}, status=400)


def _first(problems: Any) -> str:
    """The first message of a serializer's errors for one field (nested or not)."""
    while isinstance(problems, (list, dict)):
        problems = next(iter(problems.values() if isinstance(problems, dict) else problems), "")
    return str(problems)


class TournamentDetailView(APIView):
    """GET /api/tournaments/<id>/: the summary with every player."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **REFUSALS})
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = selectors.tournament_get(tournament_id=tournament_id)
        if tournament is None:
            return refusal(TournamentNotFound())
        try:
            selectors.check_can_see(tournament, request.user)
        except TournamentError as error:
            return refusal(error)
        return Response(selectors.summary(tournament))


class TournamentRegisterView(APIView):
    """POST /api/tournaments/<id>/register/: pay the buy-in and take a place."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **REFUSALS})
    def post(self, request: Request, tournament_id: int) -> Response:
        return _run(services.tournament_register, tournament_id, request)


class TournamentUnregisterView(APIView):
    """POST /api/tournaments/<id>/unregister/: before the start, with a full refund."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **REFUSALS})
    def post(self, request: Request, tournament_id: int) -> Response:
        return _run(services.tournament_unregister, tournament_id, request)


def _run(service: Any, tournament_id: int, request: Request) -> Response:
    """The body carries nothing, but a malformed one is still a 400 (read it to know)."""
    request.data  # noqa: B018 - parsing it refuses a malformed body before anything changes
    try:
        tournament = service(tournament_id=tournament_id, user=request.user)
    except TournamentError as error:
        return refusal(error)
    return Response(selectors.summary(tournament))

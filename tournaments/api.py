"""The tournament API: list, one tournament, register, unregister (session or token auth);
staff schedule a multi-table tournament with ``POST /api/tournaments/``.

Responses are the public summary the lobby shows (``tournaments.selectors.summary``):
no hand in play is read. A refusal is JSON with a ``code`` and a ``message``
and a 4xx status; nothing changed. A service's refusal is left to reach
``config/platform/api_errors.py``, which answers it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, generics
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.api import BadFilter
from tables.serializers import ErrorSerializer
from tournaments import selectors, services
from tournaments.clubs import access as club_access
from tournaments.errors import TournamentNotFound
from tournaments.models import Tournament
from tournaments.serializers import (
    SCHEDULE_CODES,
    TournamentFilterSerializer,
    TournamentScheduleSerializer,
    TournamentSerializer,
)

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


MOST_ROWS = 2**63 - 1  # an offset past what a database row count can be is refused


class TournamentPage(LimitOffsetPagination):
    """``limit`` (1 to 200, 50 unless asked) rows from ``offset`` (0 first), with the
    ``count`` of all. Limit/offset rather than a cursor: the registering list is sorted
    by kind, start, structure and buy-in, which no single cursor column follows."""

    default_limit = 50
    max_limit = 200
    carried = ("status", "limit")

    def get_limit(self, request: Request) -> int:
        return self._whole(request, self.limit_query_param, 1, self.max_limit, self.default_limit)

    def get_offset(self, request: Request) -> int:
        return self._whole(request, self.offset_query_param, 0, MOST_ROWS, 0)

    def _whole(self, request: Request, name: str, low: int, high: int, default: int) -> int:
        """The parameter as asked, refused (not silently changed) outside low..high."""
        asked = request.query_params.get(name)
        if asked is None:
            return default
        is_whole = asked.isascii() and asked.isdigit() and len(asked) <= len(str(high))
        if not (is_whole and low <= int(asked) <= high):
            problem = f"must be a whole number from {low} to {high}"
            raise BadFilter(exceptions.ValidationError({name: [problem]}))
        return int(asked)

    def paginate_queryset(
        self, queryset: Any, request: Request, view: APIView | None = None
    ) -> list[Any] | None:
        page: list[Any] | None = super().paginate_queryset(queryset, request, view)
        self.kept = [(k, v) for k, v in request.query_params.items() if k in self.carried]
        self.path = request.build_absolute_uri(request.path)
        return page

    def get_next_link(self) -> str | None:
        offset, limit = self.offset or 0, self.limit or 0
        return self._link(offset + limit) if offset + limit < (self.count or 0) else None

    def get_previous_link(self) -> str | None:
        offset, limit = self.offset or 0, self.limit or 0
        return self._link(max(0, offset - limit)) if offset > 0 else None

    def _link(self, offset: int) -> str:
        """The same list from ``offset``: only the list's own parameters carried over."""
        query = [*self.kept, ("offset", str(offset))] if offset else self.kept
        return f"{self.path}?{urlencode(query)}" if query else self.path

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        ranges = {"limit": (1, self.max_limit), "offset": (0, MOST_ROWS)}
        for parameter in parameters:
            low, high = ranges[parameter["name"]]
            parameter["schema"].update(minimum=low, maximum=high)
        return parameters


class BadStatus(exceptions.APIException):
    status_code = 400
    default_code = "bad_status"
    default_detail = "status must be registering, running or finished."


class TournamentListView(generics.ListAPIView[Tournament]):
    """GET /api/tournaments/?status=registering|running|finished: the site's and the
    caller's clubs' tournaments (registering ones soonest first, else newest first),
    a page at a time (``limit``, ``offset``)."""

    serializer_class = TournamentSerializer
    pagination_class = TournamentPage

    def get_queryset(self) -> QuerySet[Tournament]:
        query = TournamentFilterSerializer(data=self.request.query_params)
        if not query.is_valid():
            raise BadStatus()
        status = query.validated_data.get("status")
        return selectors.tournaments_list(status=status, viewer=self.request.user)

    @extend_schema(
        operation_id="tournaments_list",
        parameters=[TournamentFilterSerializer],
        responses={200: TournamentSerializer, **REFUSALS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        found = [selectors.summary(t) for t in page or []]
        return self.get_paginated_response(TournamentSerializer(found, many=True).data)

    @extend_schema(
        operation_id="tournaments_schedule",
        request=TournamentScheduleSerializer,
        responses={201: TournamentSerializer, **REFUSALS},
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
            return bad_body(body.errors, SCHEDULE_CODES)
        tournament = services.schedule_tournament(settings=body.settings())
        return Response(TournamentSerializer(selectors.summary(tournament)).data, status=201)


def bad_body(errors: Any, codes: dict[str, str] | None = None) -> Response:
    """A 400 naming the first field a body got wrong (``codes[field]``, else
    ``bad_<field>``)."""
    field, problems = next(iter(errors.items()))
    code = (codes or {}).get(field, f"bad_{field}")
    return Response({"code": code, "message": f"{field}: {_first(problems)}"}, status=400)


def _first(problems: Any) -> str:
    """The first message of a serializer's errors for one field (nested or not)."""
    while isinstance(problems, (list, dict)):
        problems = next(iter(problems.values() if isinstance(problems, dict) else problems), "")
    return str(problems)


class TournamentDetailView(APIView):
    """GET /api/tournaments/<id>/: the summary with every player."""

    @extend_schema(
        operation_id="tournaments_retrieve", responses={200: TournamentSerializer, **REFUSALS}
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = selectors.tournament_get(tournament_id=tournament_id)
        if tournament is None:
            raise TournamentNotFound()
        club_access.check_can_see(tournament, request.user)
        return Response(TournamentSerializer(selectors.summary(tournament)).data)


class TournamentRegisterView(APIView):
    """POST /api/tournaments/<id>/register/: pay the buy-in and take a place."""

    @extend_schema(
        operation_id="tournaments_register",
        request=None,
        responses={200: TournamentSerializer, **REFUSALS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        return _run(services.tournament_register, tournament_id, request)


class TournamentUnregisterView(APIView):
    """POST /api/tournaments/<id>/unregister/: before the start, with a full refund."""

    @extend_schema(
        operation_id="tournaments_unregister",
        request=None,
        responses={200: TournamentSerializer, **REFUSALS},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        return _run(services.tournament_unregister, tournament_id, request)


def _run(service: Any, tournament_id: int, request: Request) -> Response:
    """The body carries nothing, but a malformed one is still a 400 (read it to know)."""
    request.data  # noqa: B018 - parsing it refuses a malformed body before anything changes
    tournament = service(tournament_id=tournament_id, user=request.user)
    return Response(TournamentSerializer(selectors.summary(tournament)).data)

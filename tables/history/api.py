"""REST API for hand histories and stats (mounted under /api/ in config/urls.py).

Every view requires a signed-in caller (session or token), is throttled by
the default throttles (config/platform/api_throttles.py) and answers refusals as JSON
with ``code`` and ``message`` (config/platform/api_errors.py), documented as in
tables/api.py. Every hand body comes from the caller's projection
(tables/history/projection.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import QuerySet
from django.http import HttpResponse, HttpResponseNotModified, StreamingHttpResponse
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, generics
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.pagination import CursorPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.api import BAD_CURSOR, ERRORS, BadFilter
from tables.history import projection
from tables.history.filters import HandFilters, apply_filters, finished_rows, parse_filters
from tables.history.serializers import (
    HandDetailSerializer,
    HandListItemSerializer,
    StatsSerializer,
)
from tables.history.stats import contributed_stats, player_stats, totals_of
from tables.models import Hand, HandPlayer
from tables.serializers import ErrorSerializer

NOT_FOUND = {404: OpenApiResponse(ErrorSerializer, description="No such hand you were dealt.")}
EXPORT_FORMATS = {"phh": "phhs", "pokerstars": "txt"}
# What a list row never reads: the hand's full log and texts (kilobytes each).
HEAVY_HAND_FIELDS = ("hand__events", "hand__phh", "hand__pots", "hand__final_stacks")
# What a row of the hands list reads, and nothing more.
LIST_FIELDS = (
    *("id", "hand_id", "started_at", "seat", "position", "hole_cards", "net"),
    *("went_to_showdown", "hand__table_id", "hand__number", "hand__board", "hand__pot"),
    "hand__ended_at",
    *("hand__big_blind", "hand__table__name", "hand__table__kind"),
)


def checked_filters(request: Request) -> dict[str, Any]:
    try:
        return parse_filters(request.query_params)
    except exceptions.ValidationError as error:
        raise BadFilter(error) from None


class HandCursor(CursorPagination):
    ordering = ("-started_at", "-id")
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    # What a next/previous link carries over: an unknown parameter is dropped, not echoed.
    carried = frozenset(HandFilters().fields) | {"page_size", "cursor"}

    def get_page_size(self, request: Request) -> int:
        """The asked size, refused (not silently clamped) outside 1..max_page_size."""
        asked = request.query_params.get(self.page_size_query_param)
        if asked is None:
            return self.page_size
        # isdigit() alone takes "²" and other digits int() refuses, and any length.
        whole = asked.isascii() and asked.isdigit() and len(asked) <= 3
        if not (whole and 1 <= int(asked) <= self.max_page_size):
            problem = f"must be a whole number from 1 to {self.max_page_size}"
            raise BadFilter(exceptions.ValidationError({"page_size": [problem]}))
        return int(asked)

    def paginate_queryset(
        self, queryset: Any, request: Request, view: APIView | None = None
    ) -> list[Any] | None:
        page: list[Any] | None = super().paginate_queryset(queryset, request, view)
        kept = [(k, v) for k, v in request.query_params.lists() if k in self.carried]
        query = "&".join(f"{k}={quote(v, safe='')}" for k, values in kept for v in values)
        self.base_url = request.build_absolute_uri(request.path) + (f"?{query}" if query else "")
        return page


def _validated(request: Request, hand: Hand, body: bytes, response: HttpResponse) -> HttpResponse:
    """A finished hand's answer with its validators, or a 304 when the caller has it.

    A finished hand changes only when its all-in EV and its place in the public log
    are filled in, moments after it ends (or when a player's account is deleted), so
    the ETag is the body's own hash, Last-Modified is the end once both are in, and a
    copy may be kept an hour (its log proof, for an older head, stays valid).
    """
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    is_settled = not (hand.allin_ev_pending or hand.log_pending)  # both filled in soon
    ended = None if not is_settled or hand.ended_at is None else hand.ended_at
    last_modified = int(ended.timestamp()) if ended else None
    if get_conditional_response(request, etag=etag, last_modified=last_modified) is not None:
        response = HttpResponseNotModified()
    response["ETag"] = etag
    if last_modified is not None:
        response["Last-Modified"] = http_date(last_modified)
    # private: each viewer's projection differs, so no shared cache may keep it.
    response["Cache-Control"] = "private, no-cache" if ended is None else "private, max-age=3600"
    return response


def _not_found(error: projection.HandNotVisible) -> exceptions.NotFound:
    return exceptions.NotFound("No finished hand with this id that you were dealt into.")


def _viewed(request: Request, hand_id: int) -> projection.ViewedHand:
    try:
        return projection.hand_for_viewer(user=request.user, hand_id=hand_id)
    except projection.HandNotVisible as error:
        raise _not_found(error) from None


@extend_schema(
    parameters=[HandFilters], responses={200: HandListItemSerializer, **ERRORS, **BAD_CURSOR}
)
class HandListView(generics.ListAPIView[HandPlayer]):
    """Your finished hands, newest first (cursor-paginated), narrowed by the filters."""

    permission_classes = [IsAuthenticated]
    serializer_class = HandListItemSerializer
    pagination_class = HandCursor

    def get_queryset(self) -> QuerySet[HandPlayer]:
        rows = apply_filters(finished_rows(self.request.user), checked_filters(self.request))
        return rows.select_related("hand", "hand__table").only(*LIST_FIELDS)


@extend_schema(responses={200: HandDetailSerializer, **ERRORS, **NOT_FOUND})
class HandDetailView(APIView):
    """One hand as you saw it at the table: your cards, cards shown, every action."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request, hand_id: int) -> HttpResponse:
        viewed = _viewed(request, hand_id)
        data = HandDetailSerializer(projection.hand_detail(viewed)).data
        return _validated(request, viewed.hand, JSONRenderer().render(data), Response(data))


class HandTextView(APIView):
    """One hand's history text as you saw it (hole cards you did not see are hidden)."""

    permission_classes = [IsAuthenticated]
    text_format = "phh"

    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR, **ERRORS, **NOT_FOUND})
    def get(self, request: Request, hand_id: int) -> HttpResponse:
        viewed = _viewed(request, hand_id)
        write = projection.hand_phh if self.text_format == "phh" else projection.hand_pokerstars
        response = HttpResponse(write(viewed), content_type="text/plain; charset=utf-8")
        name = f"felt-hand-{viewed.hand.pk}.{EXPORT_FORMATS[self.text_format]}"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return _validated(request, viewed.hand, response.content, response)


class HandPhhView(HandTextView):
    """One hand as PHH (the open Poker Hand History standard), as you saw it."""

    text_format = "phh"


class HandPokerStarsView(HandTextView):
    """One hand as PokerStars text, as you saw it (tracker software reads it)."""

    text_format = "pokerstars"


class JsonErrorsOnly(DefaultContentNegotiation):
    """The export's ``format`` names the download, not one of DRF's renderers: its
    refusals are always JSON."""

    def select_renderer(self, request: Any, renderers: Any, format_suffix: Any = None) -> Any:
        return renderers[0], renderers[0].media_type


class HandExportView(APIView):
    """Many of your hands (same filters as the list) in one streamed download."""

    permission_classes = [IsAuthenticated]
    content_negotiation_class = JsonErrorsOnly

    @extend_schema(
        parameters=[
            OpenApiParameter("format", str, enum=list(EXPORT_FORMATS), required=True),
            HandFilters,
        ],
        responses={(200, "text/plain"): OpenApiTypes.STR, **ERRORS},
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        text_format = request.query_params.get("format", "")
        if text_format not in EXPORT_FORMATS:
            error = exceptions.ValidationError({"format": ["must be phh or pokerstars"]})
            raise BadFilter(error)
        rows = apply_filters(finished_rows(request.user), checked_filters(request))
        hand_ids = list(rows.order_by("-started_at", "-id").values_list("hand_id", flat=True))
        response = StreamingHttpResponse(
            _export(request.user, hand_ids, text_format), content_type="text/plain; charset=utf-8"
        )
        name = f"felt-hands.{EXPORT_FORMATS[text_format]}"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


def _export(user: Any, hand_ids: list[int], text_format: str) -> Iterator[str]:
    """Each hand through the same projection as one hand's download."""
    viewed_hands = projection.hands_for_viewer(user=user, hand_ids=hand_ids)
    return projection.hands_text(viewed_hands, text_format)


@extend_schema(
    parameters=[HandFilters],
    responses={200: StatsSerializer, **ERRORS, 404: OpenApiResponse(ErrorSerializer)},
)
class PlayerStatsView(APIView):
    """A player's stats: over your own hands all of them; over another player's,
    only hands you were dealt into too (staff: all)."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request, username: str) -> Response:
        filters = checked_filters(request)
        player = get_user_model().objects.filter(username=username, is_active=True).first()
        if player is None:
            raise exceptions.NotFound("No member with this username.")
        body = {"player": player.get_username(), **stats_for(request.user, player, filters)}
        return Response(StatsSerializer(body).data)


@contextmanager
def serial_plan() -> Iterator[None]:
    """On PostgreSQL, no parallel workers for the query inside (in a transaction).

    Another member's stats merge two members' rows in hand order, both read from
    the index ``tables_handplayer_user_hand``: 20 ms at 1,000,000 hands. Allowed
    workers, the planner prefers a parallel hash join of the same rows, which took
    42 ms (EXPLAIN ANALYZE in docs/performance.md, the hand-history API at a
    million hands).
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL max_parallel_workers_per_gather = 0")
    yield


def stats_for(user: Any, player: Any, filters: dict[str, Any]) -> dict[str, Any]:
    """``player``'s stats as ``user`` may count them: over all of the player's hands
    (their running totals, one row) when it is the player or staff and nothing is
    filtered; else summed over the rows, only hands ``user`` was dealt into too."""
    is_filtered = any(value is not None for value in filters.values())
    sees_all = player.pk == user.pk or user.is_staff
    contributed = contributed_stats(player=player, shared_with=None if sees_all else user)
    if sees_all and not is_filtered:
        counted = player_stats(totals_of(player))
    else:
        rows = finished_rows(player)
        if not sees_all:
            rows = rows.filter(hand_id__in=HandPlayer.objects.filter(user=user).values("hand_id"))
            with transaction.atomic(), serial_plan():
                counted = player_stats(apply_filters(rows, filters))
        else:
            counted = player_stats(apply_filters(rows, filters))
    counted["stats"].update(contributed)  # ROI and ITM count tournaments, not hands
    return counted

"""REST API for tables (mounted under /api/ in config/urls.py), and what every API
view of the app shares: the documented refusals and the bad-filter error.

Hand histories and stats have their own views (tables/history/api.py). Every
view requires a signed-in caller (session or token), is throttled by the
default throttles (config/platform/api_throttles.py) and answers refusals as JSON with
``code`` and ``message`` (config/platform/api_errors.py).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, generics
from rest_framework.pagination import CursorPagination
from rest_framework.permissions import IsAuthenticated

from tables import selectors
from tables.models import Table
from tables.serializers import ErrorSerializer, TableSerializer

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="A bad filter value, named."),
    401: OpenApiResponse(ErrorSerializer, description="No credentials, or a bad token."),
    403: OpenApiResponse(
        ErrorSerializer, description="A session caller's write without its CSRF token."
    ),
    429: OpenApiResponse(ErrorSerializer, description="Over the rate limit."),
}
BAD_CURSOR = {404: OpenApiResponse(ErrorSerializer, description="A cursor this list never gave.")}


class BadFilter(exceptions.APIException):
    status_code = 400
    default_code = "bad_filter"
    default_detail = "A filter has a bad value."

    def __init__(self, error: exceptions.ValidationError) -> None:
        problems = error.detail if isinstance(error.detail, dict) else {}
        names = ", ".join(problems) or "filter"
        texts = "; ".join(f"{k}: {' '.join(str(m) for m in v)}" for k, v in problems.items())
        super().__init__(f"Bad value for {names} ({texts})")
        self.extra = {"parameters": sorted(problems)}


class TableCursor(CursorPagination):
    ordering = "-created_at"
    page_size = 50


@extend_schema(responses={200: TableSerializer, **ERRORS, **BAD_CURSOR})
class TableListView(generics.ListAPIView[Table]):
    """Tables you own, host, sit at, bought chips at or played a hand at (staff: every
    table), newest first. A table's listing in the lobby changes nothing here: the
    API lists nobody else's tables."""

    permission_classes = [IsAuthenticated]
    serializer_class = TableSerializer
    pagination_class = TableCursor

    def get_queryset(self) -> QuerySet[Table]:
        user: Any = self.request.user
        if user.is_staff:
            return Table.objects.all()
        return selectors.tables_of(user)

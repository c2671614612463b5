"""The public log's REST API (mounted under /api/fairness-log/ in config/urls.py).

Public, like a Certificate Transparency log: anyone may read it without signing
in (a token or session is still checked when sent), throttled by the default
throttles (config/platform/api_throttles.py: per address without one). A bad
parameter is a 400 with code ``bad_log_range`` naming it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.api import ERRORS
from tables.fairness_log import proofs
from tables.history.api import JsonErrorsOnly
from tables.serializers import ErrorSerializer

HEX = "lowercase hex"


class BadLogRange(exceptions.APIException):
    status_code = 400
    default_code = "bad_log_range"
    default_detail = "A range the log cannot answer for."

    def __init__(self, parameter: str, problem: str) -> None:
        super().__init__(f"Bad value for {parameter}: {problem}.")
        self.extra = {"parameters": [parameter]}


def whole(request: Request, name: str, *, required: bool) -> int | None:
    """The query parameter ``name`` as a whole number (None when absent and optional)."""
    text = request.query_params.get(name)
    if text is None or text == "":
        if required:
            raise BadLogRange(name, "it is required")
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 18):
        raise BadLogRange(name, "must be a whole number")
    return int(text)


def answered(make: Callable[..., dict[str, Any]], *args: int | None) -> Response:
    """``make``'s answer, its ``BadRange`` as a 400 naming the parameter."""
    try:
        return Response(make(*args))
    except proofs.BadRange as error:
        raise BadLogRange(error.parameter, str(error)) from None


class CutCountsSerializer(serializers.Serializer[Any]):
    hands_cut = serializers.IntegerField(help_text="Entries with a cut record.")
    hands_uncut = serializers.IntegerField(help_text="Of those, hands no player's value cut.")
    values_left_out = serializers.IntegerField(
        help_text="Committed values the cut left out: late, or disputed by their player."
    )


class HeadSerializer(serializers.Serializer[Any]):
    tree_size = serializers.IntegerField(help_text="Entries in the log.")
    root_hash = serializers.CharField(help_text=f"The RFC 6962 tree hash, {HEX}.")
    timestamp = serializers.CharField(help_text="When it was signed: ISO-8601 UTC, µs, Z.")
    signature = serializers.CharField(
        help_text="Ed25519 over the canonical JSON of tree_size, root_hash and timestamp, hex."
    )
    public_key = serializers.CharField(help_text="The log's raw Ed25519 public key, hex.")
    cut = CutCountsSerializer(
        help_text="The players' cut in the entries so far (not signed: count them again"
        " from the entries)."
    )


class EntrySerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    entry = serializers.CharField(help_text="The entry's canonical JSON, exactly as hashed.")
    leaf_hash = serializers.CharField(help_text=f"sha256(0x00 || entry), {HEX}.")


class EntriesSerializer(serializers.Serializer[Any]):
    start = serializers.IntegerField()
    end = serializers.IntegerField(help_text="The first index not given.")
    entries = EntrySerializer(many=True)


class InclusionSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    tree_size = serializers.IntegerField()
    leaf_hash = serializers.CharField()
    audit_path = serializers.ListField(child=serializers.CharField(), help_text="Bottom up.")


class ConsistencySerializer(serializers.Serializer[Any]):
    first = serializers.IntegerField()
    second = serializers.IntegerField()
    proof = serializers.ListField(child=serializers.CharField())


BAD_RANGE = {
    **ERRORS,
    400: OpenApiResponse(ErrorSerializer, description="A bad range or size (bad_log_range)."),
}
# What an operation with no parameter may still answer: a bad token, the rate limit.
ONLY_LIMITS = {status: ERRORS[status] for status in (401, 429)}


def _query(name: str, description: str, *, required: bool = False) -> OpenApiParameter:
    return OpenApiParameter(name, int, required=required, description=description)


class PublicLogView(APIView):
    permission_classes = [AllowAny]


@extend_schema(responses={200: HeadSerializer, **ONLY_LIMITS})
class LogHeadView(PublicLogView):
    """The log's latest signed head: keep it, and later ask for its consistency proof."""

    def get(self, request: Request) -> Response:
        return Response({**proofs.head(), "cut": proofs.cut_counts()})


@extend_schema(
    parameters=[
        _query("start", "The first index (default 0).", required=False),
        _query("end", f"The first index not given (default: {proofs.MAX_ENTRIES_PAGE} on)."),
    ],
    responses={200: EntriesSerializer, **BAD_RANGE},
)
class LogEntriesView(PublicLogView):
    """Entries start to end (excluded), at most 1,000 a page: a longer range is cut
    short, and the answer's ``end`` says where to go on from."""

    def get(self, request: Request) -> Response:
        start = whole(request, "start", required=False) or 0
        return answered(proofs.entries, start, whole(request, "end", required=False))


@extend_schema(
    parameters=[
        _query("index", "The entry's index.", required=True),
        _query("tree_size", "The log's size the proof is for (default: the head's)."),
    ],
    responses={200: InclusionSerializer, **BAD_RANGE},
)
class LogInclusionView(PublicLogView):
    """The audit path of one entry in the log of ``tree_size`` entries (RFC 6962)."""

    def get(self, request: Request) -> Response:
        index = whole(request, "index", required=True)
        return answered(proofs.inclusion_proof, index, whole(request, "tree_size", required=False))


@extend_schema(
    parameters=[
        _query("first", "The older size (a head you kept).", required=True),
        _query("second", "The newer size (default: the head's)."),
    ],
    responses={200: ConsistencySerializer, **BAD_RANGE},
)
class LogConsistencyView(PublicLogView):
    """The proof that the log's first ``first`` entries are unchanged in the log of
    ``second`` (RFC 6962)."""

    def get(self, request: Request) -> Response:
        first = whole(request, "first", required=True)
        return answered(proofs.consistency_proof, first, whole(request, "second", required=False))


class LogExportView(PublicLogView):
    """The whole log as JSON lines: the signed head first, then each entry it covers
    ({index, entry, leaf_hash}) in order."""

    content_negotiation_class = JsonErrorsOnly

    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR, **ONLY_LIMITS})
    def get(self, request: Request) -> StreamingHttpResponse:
        response = StreamingHttpResponse(
            proofs.export_lines(), content_type="text/plain; charset=utf-8"
        )
        response["Content-Disposition"] = 'attachment; filename="felt-fairness-log.jsonl"'
        return response

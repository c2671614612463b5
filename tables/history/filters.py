"""The filters the hands list, the export, the stats and the /hands/ page share.

Each is a query parameter checked by ``HandFilters`` (a bad value is a 400 that
names the parameter) and applied to ``HandPlayer`` rows: the subject's own
row in each hand, so position, showdown and result are the subject's.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone
from rest_framework import serializers

from tables.history.facts import POSITION_CHOICES
from tables.models import HandPlayer, Table

RESULTS = ("won", "lost")
# The databases' integers are 64-bit: a larger id or amount matches nothing, and
# SQLite refuses to compare with it at all (OverflowError), so it is a bad value.
LARGEST_INTEGER = 2**63 - 1


class HandFilters(serializers.Serializer[Any]):
    """Query parameters: every one optional, all of them combined with AND."""

    table = serializers.IntegerField(
        required=False, min_value=1, max_value=LARGEST_INTEGER, help_text="A table's id."
    )
    tournament = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=LARGEST_INTEGER,
        help_text="A tournament's id: hands at its tables.",
    )
    kind = serializers.ChoiceField(
        choices=Table.Kind.values, required=False, help_text="The table's kind."
    )
    game = serializers.ChoiceField(
        choices=Table.Game.values,
        required=False,
        help_text="The game: nlhe (No-Limit Hold'em) or plo (Pot-Limit Omaha).",
    )
    since = serializers.DateTimeField(
        required=False, help_text="Hands started at or after this time (ISO 8601, or a date)."
    )
    until = serializers.DateTimeField(
        required=False, help_text="Hands started before this time (ISO 8601, or a date)."
    )
    ended_since = serializers.DateTimeField(
        required=False,
        help_text="Hands that ended at or after this time: a poller passes the latest end"
        " it has seen (ended_at) to fetch only what is new.",
    )
    position = serializers.ChoiceField(
        choices=POSITION_CHOICES, required=False, help_text="The player's position."
    )
    showdown = serializers.BooleanField(
        required=False, allow_null=True, default=None, help_text="Went to showdown or not."
    )
    result = serializers.ChoiceField(
        choices=RESULTS, required=False, help_text="won: net above 0; lost: net below 0."
    )
    min_pot = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=LARGEST_INTEGER,
        help_text="Hands whose pots came to at least this.",
    )

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        data = {k: v for k, v in data.items() if k in self.fields}
        for key in ("since", "until", "ended_since"):  # a bare date means its midnight, UTC
            value = data.get(key)
            if isinstance(value, str) and len(value) == 10:
                data[key] = f"{value}T00:00:00Z"
        internal: dict[str, Any] = super().to_internal_value(data)
        return internal

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        since, until = attrs.get("since"), attrs.get("until")
        if since and until and since >= until:
            raise serializers.ValidationError({"until": "must be later than since"})
        return attrs


def parse_filters(params: Any) -> dict[str, Any]:
    """The checked filters, or ``serializers.ValidationError`` naming the bad ones."""
    checked = HandFilters(data=params)
    checked.is_valid(raise_exception=True)
    return dict(checked.validated_data)


def apply_filters(rows: QuerySet[HandPlayer], filters: dict[str, Any]) -> QuerySet[HandPlayer]:
    """Narrow ``HandPlayer`` rows (one per hand, of one player) by ``filters``."""
    condition = Q()
    if "table" in filters:
        condition &= Q(hand__table_id=filters["table"])
    if "tournament" in filters:
        condition &= Q(hand__table__tournament_id=filters["tournament"])
    if "kind" in filters:
        condition &= Q(hand__table__kind=filters["kind"])
    if "game" in filters:
        condition &= Q(hand__game=filters["game"])
    if "since" in filters:
        condition &= Q(started_at__gte=_aware(filters["since"]))
    if "until" in filters:
        condition &= Q(started_at__lt=_aware(filters["until"]))
    if "ended_since" in filters:
        condition &= Q(hand__ended_at__gte=_aware(filters["ended_since"]))
    if "position" in filters:
        condition &= Q(position=filters["position"])
    if filters.get("showdown") is not None:
        condition &= Q(went_to_showdown=filters["showdown"])
    if filters.get("result") == "won":
        condition &= Q(net__gt=0)
    elif filters.get("result") == "lost":
        condition &= Q(net__lt=0)
    if "min_pot" in filters:
        condition &= Q(hand__pot__gte=filters["min_pot"])
    return rows.filter(condition)


def _aware(moment: datetime.datetime) -> datetime.datetime:
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment, datetime.UTC)


def finished_rows(user: Any) -> QuerySet[HandPlayer]:
    """``user``'s seat in every hand they were dealt into (rows exist once a hand ends)."""
    return HandPlayer.objects.filter(user=user, started_at__isnull=False)

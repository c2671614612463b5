"""The tables API's bodies, field by field (hand histories: tables/history/serializers.py)."""

from __future__ import annotations

from rest_framework import serializers

# The refusals' body, documented by every API view (tables.api imports it from here).
from config.platform.api_errors import ErrorSerializer as ErrorSerializer
from tables.models import Table


class TableSerializer(serializers.ModelSerializer[Table]):
    class Meta:
        model = Table
        fields = (
            "id",
            "name",
            "kind",
            "seat_count",
            "small_blind",
            "big_blind",
            "ante",
            "starting_stack",
            "created_at",
        )
        read_only_fields = fields

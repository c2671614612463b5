"""What the tournament API reads from a request: the list's status filter."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import Tournament

LISTED = (
    Tournament.Status.REGISTERING,
    Tournament.Status.RUNNING,
    Tournament.Status.FINISHED,
)


class TournamentFilterSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=LISTED, required=False)

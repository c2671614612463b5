"""What the tournament API reads from a request: the list's status filter."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.api_fields import TextField
from tournaments.models import Tournament

LISTED = (
    Tournament.Status.REGISTERING,
    Tournament.Status.RUNNING,
    Tournament.Status.FINISHED,
)


class TournamentFilterSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=LISTED, required=False)


class LevelSerializer(serializers.Serializer[Any]):
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField(required=False, default=0)
    minutes = serializers.FloatField()


class BreakSerializer(serializers.Serializer[Any]):
    after_level = serializers.IntegerField(help_text="The level it follows (1 = the first).")
    minutes = serializers.IntegerField()


class TournamentScheduleSerializer(serializers.Serializer[Any]):
    """The body of ``POST /api/tournaments/`` (staff): the shape only; the service
    (``schedule_tournament``) checks every value."""

    name = TextField(max_length=200)
    starts_at = serializers.DateTimeField(help_text="ISO 8601 with its zone, still to come.")
    buy_in = serializers.IntegerField(required=False, default=0)
    seats_per_table = serializers.IntegerField(required=False, default=9, help_text="2 to 9.")
    max_entrants = serializers.IntegerField(required=False, default=60)
    structure = TextField(required=False, default="regular")
    levels = LevelSerializer(many=True, required=False, help_text="Instead of ``structure``.")
    starting_stack = serializers.IntegerField(required=False)
    late_registration_levels = serializers.IntegerField(required=False, default=0)
    break_every_minutes = serializers.IntegerField(required=False, default=0)
    break_minutes = serializers.IntegerField(required=False, default=0)
    breaks = BreakSerializer(
        many=True, required=False, help_text="Between levels, instead of a break every so often."
    )
    payout_percentages = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="Adding up to 100."
    )
    points_scope = TextField(required=False, default="site")


class ClubCreateSerializer(serializers.Serializer[Any]):
    """The body of ``POST /api/clubs/``: the shape only; ``club_create`` checks values."""

    name = TextField(max_length=200, trim_whitespace=False)
    description = TextField(max_length=2000, required=False, default="", allow_blank=True)


class ClubJoinSerializer(serializers.Serializer[Any]):
    token = TextField(
        max_length=200, required=False, help_text="The invitation link's; without it: ask to join."
    )


class ClubPointsSerializer(serializers.Serializer[Any]):
    username = TextField(max_length=150)
    amount = serializers.IntegerField(help_text="Negative to take points.")
    reason = TextField(max_length=2000)


class ClubScheduleSerializer(TournamentScheduleSerializer):
    """The body of ``POST /api/clubs/<slug>/tournaments/``: paid in the club's points."""

    points_scope = None  # type: ignore[assignment]

"""The club API's bodies: what a request may carry (with the ranges the club services
accept) and what an answer holds, field by field."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.platform.api_fields import TextField
from tournaments import schedule_messages
from tournaments.clubs import services as club_rules
from tournaments.models import MAX_REPEAT_DAYS, Membership
from tournaments.serializers import (
    NOT_ONLY_SPACES,
    TournamentScheduleSerializer,
    TournamentSerializer,
)
from tournaments.tournament_settings import TournamentSettings

# --- what a request carries ----------------------------------------------------------


class ClubCreateSerializer(serializers.Serializer[Any]):
    """The body of ``POST /api/clubs/``: the shape only; ``club_create`` checks values."""

    name = TextField(
        max_length=club_rules.MAX_NAME, trim_whitespace=False, validators=[NOT_ONLY_SPACES]
    )
    description = TextField(
        max_length=club_rules.MAX_DESCRIPTION, required=False, default="", allow_blank=True
    )


class ClubJoinSerializer(serializers.Serializer[Any]):
    token = TextField(
        max_length=200, required=False, help_text="The invitation link's; without it: ask to join."
    )


class ClubPointsSerializer(serializers.Serializer[Any]):
    username = TextField(max_length=150)
    amount = serializers.IntegerField(
        min_value=-club_rules.MAX_ADJUSTMENT,
        max_value=club_rules.MAX_ADJUSTMENT,
        help_text="Negative to take points; never 0.",
    )
    reason = TextField(max_length=club_rules.MAX_NOTE, validators=[NOT_ONLY_SPACES])


class ClubGrantSerializer(serializers.Serializer[Any]):
    amount = serializers.IntegerField(
        min_value=1, max_value=club_rules.MAX_ADJUSTMENT, help_text="Points for each member."
    )
    reason = TextField(max_length=club_rules.MAX_NOTE, validators=[NOT_ONLY_SPACES])


class ClubJoiningPointsSerializer(serializers.Serializer[Any]):
    joining_points = serializers.IntegerField(
        min_value=0,
        max_value=club_rules.MAX_ADJUSTMENT,
        help_text="Club points each new member is given once, on joining (0: none).",
    )


class ClubScheduleSerializer(TournamentScheduleSerializer):
    """The body of ``POST /api/clubs/<slug>/tournaments/``: paid in the club's points."""

    points_scope = None  # type: ignore[assignment]
    repeat_every_days = serializers.IntegerField(
        min_value=1,
        max_value=MAX_REPEAT_DAYS,
        required=False,
        help_text="Repeats every this many days (7: weekly) until an admin stops it; "
        "each game is a tournament of its own. Absent: once.",
        error_messages=schedule_messages.whole_number("repeat_every_days", 1, MAX_REPEAT_DAYS),
    )
    time_zone = TextField(
        required=False,
        default="UTC",
        max_length=64,
        help_text="The IANA zone whose wall-clock time the repeats keep (Europe/Paris).",
    )

    def repeat(self) -> tuple[int | None, str]:
        """Days between games (None: once) and the zone they keep their time in."""
        return self.validated_data.get("repeat_every_days"), self.validated_data["time_zone"]

    def settings(self) -> TournamentSettings:
        given = {
            k: v
            for k, v in self.validated_data.items()
            if k not in ("repeat_every_days", "time_zone")
        }
        return TournamentSettings(**given)


# --- what an answer holds ------------------------------------------------------------


class MemberSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    name = serializers.CharField(help_text="The name other members see.")
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    joined_at = serializers.DateTimeField(allow_null=True)
    balance = serializers.IntegerField(
        required=False, help_text="Club points: every member's for admins, else only yours."
    )


class WaitingSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    name = serializers.CharField()
    since = serializers.DateTimeField()


class ClubTournamentsSerializer(serializers.Serializer[Any]):
    upcoming = TournamentSerializer(many=True, help_text="Soonest first.")
    running = TournamentSerializer(many=True)
    results = TournamentSerializer(many=True, help_text="The latest finished, newest first.")


class SeriesSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="For POST /api/clubs/<slug>/series/<id>/stop/.")
    name = serializers.CharField()
    repeats = serializers.CharField(help_text='How often: "Weekly", "Every 3 days", ...')
    listed_tournament = serializers.IntegerField(
        allow_null=True, help_text="The game taking registrations now (its id), if any."
    )
    next_starts_at = serializers.DateTimeField(
        allow_null=True, help_text="The start of the game after it, listed once it starts."
    )


class ClubSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    your_role = serializers.ChoiceField(choices=Membership.Role.choices)
    joining_points = serializers.IntegerField(
        help_text="Club points each new member is given once, on joining."
    )
    members = MemberSerializer(many=True)
    tournaments = ClubTournamentsSerializer()
    series = SeriesSerializer(many=True, help_text="Repeating tournaments still repeating.")
    invite_token = serializers.CharField(required=False, help_text="Admins only.")
    pending = WaitingSerializer(many=True, required=False, help_text="Admins only: who asked.")


class JoinAskedSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=["pending"], help_text="An admin will answer.")


class PointsAdjustedSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    amount = serializers.IntegerField()
    balance = serializers.IntegerField(help_text="The member's club points afterwards.")
    reason = serializers.CharField()
    at = serializers.DateTimeField()


class PointsGrantedSerializer(serializers.Serializer[Any]):
    amount = serializers.IntegerField(help_text="Points each member was given.")
    members = serializers.IntegerField(help_text="How many members were given them.")
    reason = serializers.CharField()
    at = serializers.DateTimeField()

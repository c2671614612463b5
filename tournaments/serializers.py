"""The tournament API's bodies, field by field: what a request may carry (with the
ranges the services accept, so the schema says what a valid body is) and what an
answer holds (so every field has a type a generated client can use). The club API's
are in ``tournaments/clubs/serializers.py``.

Values the schema cannot express (a start still to come, blinds that rise, payouts
adding up to 100) are checked by the services and refused with a 400 naming the field.
"""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from rest_framework import serializers

import engine
from config.platform.api_fields import TextField, ZonedDateTimeField
from tables.models import MAX_SEATS, MIN_SEATS, Table
from tournaments import schedule_messages
from tournaments import tournament_settings as schedule_rules
from tournaments.models import Deal, Tournament
from tournaments.tournament_settings import TournamentSettings

LISTED = (
    Tournament.Status.REGISTERING,
    Tournament.Status.RUNNING,
    Tournament.Status.FINISHED,
)
MOST_CHIPS = 10**9
# A name or reason of spaces only is refused: the schema says so with this pattern.
NOT_ONLY_SPACES = RegexValidator(r"\S", "Must not be empty or only spaces.")


# --- what a request carries ----------------------------------------------------------


class TournamentFilterSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(
        choices=LISTED, required=False, help_text="Only tournaments in this state."
    )


class LevelSerializer(serializers.Serializer[Any]):
    small_blind = serializers.IntegerField(min_value=1, max_value=MOST_CHIPS)
    big_blind = serializers.IntegerField(
        min_value=1, max_value=MOST_CHIPS, help_text="At least the small blind."
    )
    ante = serializers.IntegerField(
        min_value=0, max_value=MOST_CHIPS, required=False, default=0, help_text="At most the BB."
    )
    minutes = serializers.FloatField(min_value=1, max_value=schedule_rules.MAX_LEVEL_MINUTES)


# A schedule body's refusals use the service's codes (docs/tournaments.md), whichever
# of the two found the value bad; a field not named here is ``bad_<field>``.
SCHEDULE_CODES = {
    "seats_per_table": "bad_seats",
    "late_registration_levels": "bad_late_registration",
    "break_every_minutes": "bad_breaks",
    "break_minutes": "bad_breaks",
    "breaks": "bad_breaks",
    "payout_percentages": "bad_payouts",
    "bounty": "bad_bounty",
    "progressive_bounty": "bad_bounty",
    "max_reentries": "bad_reentries",
    "rebuy_levels": "bad_rebuys",
    "max_rebuys": "bad_rebuys",
    "addon_chips": "bad_add_on",
    "addon_price": "bad_add_on",
    "repeat_every_days": "bad_repeat",
}


class BreakSerializer(serializers.Serializer[Any]):
    after_level = serializers.IntegerField(
        min_value=1,
        max_value=schedule_rules.MAX_LEVELS,
        help_text="The level it follows (1 = the first), before the last level; in order.",
    )
    minutes = serializers.IntegerField(min_value=1, max_value=schedule_rules.MAX_BREAK_MINUTES)


class TournamentScheduleSerializer(serializers.Serializer[Any]):
    """The body of ``POST /api/tournaments/`` (staff): the shape and ranges; the service
    (``schedule_tournament``) checks what depends on several values."""

    name = TextField(
        max_length=schedule_rules.MAX_NAME,
        validators=[NOT_ONLY_SPACES],
        error_messages=schedule_messages.for_field("name"),
    )
    starts_at = ZonedDateTimeField(
        help_text="ISO 8601 with its zone, still to come.",
        error_messages=schedule_messages.START,
    )
    buy_in = serializers.IntegerField(
        min_value=0,
        max_value=MOST_CHIPS,
        required=False,
        default=0,
        error_messages=schedule_messages.whole_number("buy_in"),
    )
    seats_per_table = serializers.IntegerField(
        min_value=MIN_SEATS,
        max_value=MAX_SEATS,
        required=False,
        default=9,
        error_messages=schedule_messages.whole_number("seats_per_table"),
    )
    max_entrants = serializers.IntegerField(
        min_value=2,
        max_value=schedule_rules.MAX_ENTRANTS,
        required=False,
        default=60,
        error_messages=schedule_messages.whole_number("max_entrants"),
    )
    structure = serializers.ChoiceField(
        choices=list(engine.STRUCTURES), required=False, default="regular"
    )
    game = serializers.ChoiceField(
        choices=Table.Game.choices,
        required=False,
        default=Table.Game.NO_LIMIT_HOLDEM.value,
        help_text="What every table deals: nlhe (No-Limit Hold'em) or plo (Pot-Limit Omaha).",
    )
    levels = serializers.ListField(
        child=LevelSerializer(),
        min_length=1,
        max_length=schedule_rules.MAX_LEVELS,
        required=False,
        help_text="Instead of ``structure``: each level's blinds rise above the one before.",
    )
    starting_stack = serializers.IntegerField(
        min_value=2,
        max_value=MOST_CHIPS,
        required=False,
        help_text="At least two big blinds.",
        error_messages=schedule_messages.whole_number("starting_stack"),
    )
    late_registration_levels = serializers.IntegerField(
        min_value=0,
        max_value=schedule_rules.MAX_LEVELS,
        required=False,
        default=0,
        help_text="At most the structure's number of levels.",
        error_messages=schedule_messages.whole_number("late_registration_levels"),
    )
    break_every_minutes = serializers.IntegerField(
        min_value=0,
        max_value=schedule_rules.MAX_LEVEL_MINUTES,
        required=False,
        default=0,
        help_text="0 (no breaks) or at least 10, given with ``break_minutes``.",
        error_messages=schedule_messages.whole_number("break_every_minutes"),
    )
    break_minutes = serializers.IntegerField(
        min_value=0,
        max_value=schedule_rules.MAX_BREAK_MINUTES,
        required=False,
        default=0,
        error_messages=schedule_messages.whole_number("break_minutes"),
    )
    breaks = serializers.ListField(
        child=BreakSerializer(),
        max_length=schedule_rules.MAX_LEVELS,
        required=False,
        help_text="Between levels, instead of a break every so often.",
    )
    payout_percentages = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=100),
        min_length=1,
        required=False,
        help_text="Adding up to 100, never more for a place than for the one above.",
    )
    bounty = serializers.IntegerField(
        min_value=0,
        max_value=MOST_CHIPS,
        required=False,
        default=0,
        help_text="A knockout: this part of the buy-in is a bounty on each player (0: none).",
        error_messages=schedule_messages.whole_number("bounty"),
    )
    progressive_bounty = serializers.BooleanField(
        required=False, default=False, help_text="Half of a bounty taken goes onto the taker's."
    )
    max_reentries = serializers.IntegerField(
        min_value=0,
        max_value=schedule_rules.MAX_REBUYS,
        required=False,
        default=0,
        help_text="Instead of rebuys: re-entries per player during late registration.",
        error_messages=schedule_messages.whole_number("max_reentries"),
    )
    rebuy_levels = serializers.IntegerField(
        min_value=0,
        max_value=schedule_rules.MAX_LEVELS,
        required=False,
        default=0,
        help_text="Rebuys until this level ends (0: none); before the last level.",
        error_messages=schedule_messages.whole_number("rebuy_levels"),
    )
    max_rebuys = serializers.IntegerField(
        min_value=0,
        max_value=schedule_rules.MAX_REBUYS,
        required=False,
        default=0,
        help_text="Rebuys per player (the buy-in for the starting stack); with ``rebuy_levels``.",
        error_messages=schedule_messages.whole_number("max_rebuys"),
    )
    addon_chips = serializers.IntegerField(
        min_value=0,
        max_value=MOST_CHIPS,
        required=False,
        default=0,
        help_text="The add-on's chips after the rebuy period (0: none).",
        error_messages=schedule_messages.whole_number("addon_chips"),
    )
    addon_price = serializers.IntegerField(
        min_value=0,
        max_value=MOST_CHIPS,
        required=False,
        default=0,
        error_messages=schedule_messages.whole_number("addon_price"),
    )
    points_scope = TextField(
        required=False,
        default="site",
        validators=[RegexValidator(schedule_rules.SCOPE_PATTERN)],
        help_text='"site", or "club:<id>" for a club\'s points.',
    )

    def settings(self) -> TournamentSettings:
        """The checked body as settings (``BadSettings`` for a value the shape allowed)."""
        return TournamentSettings(**self.validated_data)


# --- what an answer holds ------------------------------------------------------------


class LevelNowSerializer(serializers.Serializer[Any]):
    level = serializers.IntegerField(help_text="The level in play, 1 being the first.")
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()
    ends_at = serializers.DateTimeField(allow_null=True, help_text="Null once it is over.")
    break_ends_at = serializers.DateTimeField(
        allow_null=True, help_text="During a break, when play resumes; else null."
    )


class WinnerSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    place = serializers.IntegerField()
    prize = serializers.IntegerField()


class EntrantSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="The name shown at the table.")
    username = serializers.CharField(allow_null=True, help_text="Null for a bot.")
    is_bot = serializers.BooleanField()
    stack = serializers.IntegerField(
        allow_null=True, help_text="Chips between hands while running; else null."
    )
    place = serializers.IntegerField(allow_null=True, help_text="Null while still in.")
    prize = serializers.IntegerField(help_text="Prize points paid, a deal's included.")
    deal = serializers.IntegerField(
        allow_null=True,
        help_text="The part of the prize an accepted deal paid; null for a player not in one.",
    )
    paid = serializers.IntegerField(help_text="Everything paid to the entry: prize and bounties.")
    rebuys = serializers.IntegerField(help_text="Rebuys bought (0 without rebuys).")
    has_added_on = serializers.BooleanField(help_text="Whether the add-on was bought.")
    bounty = serializers.IntegerField(
        allow_null=True, help_text="A knockout's bounty on the player now; null without bounties."
    )
    bounties_won = serializers.IntegerField(
        help_text="Bounty points paid: others' taken, and the winner's own at the end."
    )
    is_reentry = serializers.BooleanField(help_text="An entry after the player's first.")


class BountiesSerializer(serializers.Serializer[Any]):
    bounty = serializers.IntegerField(help_text="Of each buy-in, the bounty on the entrant.")
    is_progressive = serializers.BooleanField(
        help_text="Half of a bounty taken is paid, half goes onto the taker's own (rule 27)."
    )
    taken = serializers.IntegerField(help_text="Players knocked out so far.")


class RebuysSerializer(serializers.Serializer[Any]):
    until_level = serializers.IntegerField(help_text="Rebuys are sold until this level ends.")
    most_per_player = serializers.IntegerField()
    price = serializers.IntegerField(help_text="A rebuy's price: the buy-in.")
    chips = serializers.IntegerField(help_text="A rebuy's chips: the starting stack.")
    addon_chips = serializers.IntegerField(help_text="0: no add-on.")
    addon_price = serializers.IntegerField()
    is_rebuy_open = serializers.BooleanField()
    is_addon_open = serializers.BooleanField(
        help_text="From the end of the rebuy period to the end of the next level."
    )
    rebuys = serializers.IntegerField(help_text="Rebuys bought so far, by everyone.")
    add_ons = serializers.IntegerField(help_text="Add-ons bought so far.")


class SeatedSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(help_text="1-based seat number.")
    name = serializers.CharField()
    stack = serializers.IntegerField()


class SeatingSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The table's id.")
    name = serializers.CharField()
    url = serializers.CharField(help_text="The table's page.")
    players = SeatedSerializer(many=True)


class DealShareSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="The player, as named at the table.")
    amount = serializers.IntegerField(help_text="Points paid to them by the deal.")
    stack = serializers.IntegerField(help_text="Their chips when the deal was proposed.")


class DealSerializer(serializers.Serializer[Any]):
    method = serializers.ChoiceField(choices=Deal.Method.choices)
    method_name = serializers.CharField(help_text='"ICM", "Chip chop" or "Custom".')
    kept_for_winner = serializers.IntegerField(
        help_text="Points kept back from the first prize: the winner of the play after "
        "the deal takes them; 0: the deal ended the tournament."
    )
    decided_at = serializers.DateTimeField(help_text="When the last player accepted it.")
    amounts = DealShareSerializer(many=True, help_text="Each player's share, biggest first.")


class TournamentSerializer(serializers.Serializer[Any]):
    """One tournament's public facts (``tournaments.selectors.summary``)."""

    id = serializers.IntegerField()
    title = serializers.CharField()
    kind = serializers.ChoiceField(choices=Tournament.Kind.choices)
    structure = serializers.CharField(help_text="The blind structure's name.")
    game = serializers.ChoiceField(
        choices=Table.Game.choices, help_text="What its tables deal: nlhe or plo."
    )
    game_name = serializers.CharField(help_text='"No-Limit Hold\'em" or "Pot-Limit Omaha".')
    buy_in = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    seats = serializers.IntegerField(help_text="Seats per table.")
    entrant_limit = serializers.IntegerField()
    starts_at = serializers.DateTimeField(allow_null=True, help_text="Scheduled start; else null.")
    registered = serializers.IntegerField(help_text="Entries, re-entries included.")
    reentries = serializers.IntegerField(
        allow_null=True, help_text="Entries after a player's first; null without re-entry."
    )
    rebuys = RebuysSerializer(allow_null=True, help_text="Null without rebuys.")
    bounties = BountiesSerializer(allow_null=True, help_text="Null without bounties.")
    players_left = serializers.IntegerField(allow_null=True, help_text="Null before the start.")
    prize_pool = serializers.IntegerField()
    payouts = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Prizes by place, first place first: a sit-n-go's for its full table, a "
        "scheduled tournament's for its entries so far; empty while the pool holds nothing.",
    )
    refunded = serializers.IntegerField(
        allow_null=True, help_text="A cancelled tournament's refunds in points; else null."
    )
    has_open_deal = serializers.BooleanField(
        help_text="A deal waits for the players' answers; no hand is dealt meanwhile."
    )
    started_at = serializers.DateTimeField(allow_null=True)
    ended_at = serializers.DateTimeField(allow_null=True)
    level = LevelNowSerializer(allow_null=True, help_text="Null before the start.")
    tables = serializers.ListField(child=serializers.IntegerField(), help_text="Table ids.")
    winners = WinnerSerializer(many=True)
    players = EntrantSerializer(many=True, help_text="Still in first (biggest stack), then out.")
    deal = DealSerializer(
        allow_null=True, help_text="The deal the players left accepted (rule 28); else null."
    )
    seating = SeatingSerializer(many=True, help_text="A running multi-table tournament's tables.")
    average_stack = serializers.IntegerField(allow_null=True)
    url = serializers.CharField(help_text="The tournament's page.")

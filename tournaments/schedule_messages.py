"""What a person reads when a scheduling value is missing or cannot be read: one
sentence per field, the same on the scheduling pages (Django's form fields) and in
the API's refusals (DRF's serializer fields), in the words ``TournamentSettings``
uses for the values it refuses ("The buy-in must be a whole number from 0 to ...").

Both kinds of field take these as ``error_messages``: each looks up only the keys it
knows, and none of these sentences holds a placeholder either fills in.
"""

from __future__ import annotations

from typing import Any

from django.utils.text import capfirst

from tables.models import MAX_SEATS, MIN_SEATS
from tournaments import tournament_settings as rules

# How each setting is named in a sentence.
NAMES = {
    "name": "the name",
    "starts_at": "the start",
    "buy_in": "the buy-in",
    "seats_per_table": "seats per table",
    "max_entrants": "the most entrants",
    "structure": "the structure",
    "starting_stack": "the starting stack",
    "late_registration_levels": "late registration",
    "break_every_minutes": "minutes between breaks",
    "break_minutes": "a break's minutes",
    "bounty": "the bounty",
    "max_reentries": "re-entries per player",
    "rebuy_levels": "the rebuy period's levels",
    "max_rebuys": "rebuys per player",
    "addon_chips": "the add-on's chips",
    "addon_price": "the add-on's price",
    "payout_percentages": "the payouts",
    "level_minutes": "each level's minutes",
    "break_every_levels": "levels between breaks",
    "repeat_every_days": "the days between games",
    "speed": "how fast the blinds rise",
    "target_hours": "the length",
}


MOST_CHIPS = 10**9
# The whole numbers each takes (the settings check the rest: a stack of two first big
# blinds, late registration within the levels, a bounty within the buy-in).
RANGES = {
    "buy_in": (0, MOST_CHIPS),
    "seats_per_table": (MIN_SEATS, MAX_SEATS),
    "max_entrants": (2, rules.MAX_ENTRANTS),
    "starting_stack": (2, MOST_CHIPS),
    "late_registration_levels": (0, rules.MAX_LEVELS),
    "break_every_minutes": (0, rules.MAX_LEVEL_MINUTES),
    "break_minutes": (0, rules.MAX_BREAK_MINUTES),
    "bounty": (0, MOST_CHIPS),
    "max_reentries": (0, rules.MAX_REBUYS),
    "rebuy_levels": (0, rules.MAX_LEVELS),
    "max_rebuys": (0, rules.MAX_REBUYS),
    "addon_chips": (0, MOST_CHIPS),
    "addon_price": (0, MOST_CHIPS),
}


def _missing(what: str) -> str:
    return f"Give {what}."


def whole_number(field: str, low: int | None = None, high: int | None = None) -> dict[str, Any]:
    """A whole number from ``low`` to ``high`` (the field's ``RANGES`` unless given)."""
    if low is None or high is None:
        low, high = RANGES[field]
    what = NAMES[field]
    sentence = f"{capfirst(what)} must be a whole number from {low:,} to {high:,}."
    return {
        "required": _missing(what),
        "null": _missing(what),
        "invalid": sentence,
        "min_value": sentence,
        "max_value": sentence,
        "max_string_length": sentence,
        "step_size": sentence,
    }


def text(field: str, most: int) -> dict[str, Any]:
    """Text of 1 to ``most`` characters."""
    what = NAMES[field]
    sentence = f"{capfirst(what)} has 1 to {most:,} characters."
    return {
        "required": _missing(what),
        "null": _missing(what),
        "blank": _missing(what),
        "invalid": sentence,
        "max_length": sentence,
    }


def choice(field: str, choices: list[str]) -> dict[str, Any]:
    """One of ``choices``."""
    what = NAMES[field]
    sentence = f"{capfirst(what)} is one of {', '.join(choices)}."
    return {"required": _missing(what), "invalid_choice": sentence, "null": _missing(what)}


def for_field(field: str) -> dict[str, Any]:
    """The sentences of a scheduling field named in ``NAMES`` (``{}`` for others)."""
    if field == "starts_at":
        return START
    if field == "name":
        return text("name", rules.MAX_NAME)
    if field in RANGES:
        return whole_number(field)
    return {}


START: dict[str, Any] = {
    "required": "Give the start: a date and a time.",
    "null": "Give the start: a date and a time.",
    "invalid": "Give the start as a date and a time, such as 2030-01-15T19:30.",
    "date": "Give the start as a date and a time, not a date alone.",
    "naive": "Give the start with its time zone, such as 2030-01-15T19:30:00+01:00 or Z for UTC.",
}

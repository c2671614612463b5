"""The forms behind /tables/new/ and /tables/practice/."""

from __future__ import annotations

from typing import Any

from django import forms

from config.platform.domain_errors import add_to_form
from tables.errors import BadOptions
from tables.models import (
    DEFAULT_SEATS,
    MAX_ACTION_SECONDS,
    MAX_BOMB_POT_EVERY,
    MAX_SEATS,
    MIN_ACTION_SECONDS,
    MIN_SEATS,
    Table,
)
from tables.services.options import check_options
from tables.services.tables import PRACTICE_MAX_BOTS, BadTableSettings, check_table_settings

MIN_BOTS, MAX_BOTS = 1, PRACTICE_MAX_BOTS


class NewTableForm(forms.Form):
    """A friends' table: its name, size, game, blinds, starting chips, clock, the
    home-game options (docs/rules.md rules 23-25) and whether the lobby lists it."""

    name = forms.CharField(max_length=60, initial="Friday game")
    seat_count = forms.IntegerField(
        label="Seats", min_value=MIN_SEATS, max_value=MAX_SEATS, initial=DEFAULT_SEATS
    )
    # Optional, as a form posted before these settings existed leaves them out:
    # Hold'em with no options (``clean`` fills in the defaults).
    game = forms.ChoiceField(
        choices=Table.Game.choices, initial=Table.Game.NO_LIMIT_HOLDEM, required=False
    )
    small_blind = forms.IntegerField(min_value=1, max_value=1_000_000, initial=10)
    big_blind = forms.IntegerField(min_value=1, max_value=1_000_000, initial=20)
    starting_stack = forms.IntegerField(min_value=1, max_value=100_000_000, initial=1500)
    action_seconds = forms.IntegerField(
        label="Seconds per decision",
        min_value=MIN_ACTION_SECONDS,
        max_value=MAX_ACTION_SECONDS,
        initial=20,
        help_text="Plus each player's time bank.",
    )
    allows_straddle = forms.BooleanField(
        label="Straddles",
        required=False,
        help_text="The player under the gun may post two big blinds before the deal.",
    )
    offers_run_it_twice = forms.BooleanField(
        label="Run it twice",
        required=False,
        help_text="Players all-in before the river may deal the rest of the board twice.",
    )
    bomb_pot_ante = forms.IntegerField(
        label="Bomb pot stake",
        min_value=0,
        max_value=100_000_000,
        initial=0,
        required=False,
        help_text="What everyone puts in a bomb pot, which starts on the flop; 0: no bomb pots.",
    )
    bomb_pot_every = forms.IntegerField(
        label="A bomb pot every",
        min_value=0,
        max_value=MAX_BOMB_POT_EVERY,
        initial=0,
        required=False,
        help_text="Hands; 0: only when the host calls one.",
    )
    is_listed = forms.BooleanField(
        label="List this table in the lobby",
        required=False,
        help_text="Off: only people you send its link to can find it. On: every member"
        " sees it in the lobby and may sit down.",
    )

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        cleaned["game"] = cleaned.get("game") or Table.Game.NO_LIMIT_HOLDEM
        for optional in ("bomb_pot_ante", "bomb_pot_every"):
            if optional not in self.errors:
                cleaned[optional] = cleaned.get(optional) or 0
        fields = ("seat_count", "small_blind", "big_blind", "starting_stack", "action_seconds")
        if all(cleaned.get(name) is not None for name in fields):
            try:  # the service's own check, so the form and the service never disagree
                check_table_settings(**{name: cleaned[name] for name in fields})
            except BadTableSettings as error:
                add_to_form(self, error, error.field)
        options = ("game", "bomb_pot_ante", "bomb_pot_every", "big_blind", "starting_stack")
        if all(cleaned.get(name) is not None for name in options):
            try:
                check_options(**{name: cleaned[name] for name in options})
            except BadOptions as error:
                add_to_form(self, error, error.field)
        return cleaned


class PracticeForm(forms.Form):
    """How many bots to play against, at which game and pace."""

    bots = forms.IntegerField(
        label="Number of bots", min_value=MIN_BOTS, max_value=MAX_BOTS, initial=MAX_BOTS
    )
    game = forms.ChoiceField(
        choices=Table.Game.choices, initial=Table.Game.NO_LIMIT_HOLDEM, required=False
    )

    # Optional like the game: a form posted without it plays at the normal pace.
    pace = forms.ChoiceField(
        choices=Table.Pace.choices,
        initial=Table.Pace.NORMAL,
        required=False,
        help_text="Fast: the bots answer at once and the next hand follows quickly.",
    )

    def clean_game(self) -> str:
        return self.cleaned_data.get("game") or Table.Game.NO_LIMIT_HOLDEM

    def clean_pace(self) -> str:
        return self.cleaned_data.get("pace") or Table.Pace.NORMAL

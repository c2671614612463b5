"""Forms: scheduling a multi-table tournament (staff in the admin; a club's admins on
its page, ``tournaments/clubs/forms.py``).

Each reads its fields into a ``TournamentSettings`` (whose refusals become the form's
errors) and writes nothing: the view (or the admin) hands the settings to the service."""

from __future__ import annotations

import json
from typing import Any

from django import forms

import engine
from config.platform.domain_errors import add_to_form
from tables.models import Table
from tournaments import schedule_messages
from tournaments.errors import BadSettings, TournamentError
from tournaments.models import Tournament
from tournaments.services.schedule import paying_club
from tournaments.tournament_settings import TournamentSettings

ZERO_WHEN_EMPTY = (
    "bounty",
    "max_reentries",
    "rebuy_levels",
    "max_rebuys",
    "addon_chips",
    "addon_price",
)

# Which form field a refusal's code belongs to.
_FIELD_OF = {
    "bad_name": "name",
    "bad_starts_at": "starts_at",
    "bad_buy_in": "buy_in",
    "bad_seats": "seats_per_table",
    "bad_max_entrants": "max_entrants",
    "bad_structure": "structure",
    "bad_game": "game",
    "bad_levels": "levels",
    "bad_starting_stack": "starting_stack",
    "bad_late_registration": "late_registration_levels",
    "bad_rebuys": "rebuy_levels",
    "bad_bounty": "bounty",
    "bad_reentries": "max_reentries",
    "bad_add_on": "addon_chips",
    "bad_breaks": "break_every_minutes",
    "bad_payouts": "payout_percentages",
    "bad_points_scope": "points_scope",
}


class ScheduleTournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    """Staff's form in the admin: custom levels typed as JSON."""

    name = forms.CharField(max_length=200)
    starts_at = forms.DateTimeField(help_text="In the site's time zone.")
    game = forms.ChoiceField(
        choices=Table.Game.choices,
        initial=Table.Game.NO_LIMIT_HOLDEM,
        required=False,  # a form posted before the game was asked deals Hold'em
        help_text="What every table of the tournament deals.",
    )
    buy_in = forms.IntegerField(initial=0)
    seats_per_table = forms.IntegerField(initial=9, help_text="2 to 9.")
    max_entrants = forms.IntegerField(initial=60)
    structure = forms.ChoiceField(choices=[(n, n.title()) for n in engine.STRUCTURES])
    levels = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text='Custom levels instead of the structure, as JSON: [{"small_blind": 25, '
        '"big_blind": 50, "ante": 0, "minutes": 15}, ...]',
    )
    starting_stack = forms.IntegerField(required=False)
    late_registration_levels = forms.IntegerField(initial=0)
    bounty = forms.IntegerField(
        initial=0, required=False, help_text="Of the buy-in, a bounty on each player (0: none)."
    )
    progressive_bounty = forms.BooleanField(
        required=False, help_text="Half of each bounty taken goes onto the taker's own."
    )
    max_reentries = forms.IntegerField(
        initial=0, required=False, help_text="Re-entries per player in late registration."
    )
    rebuy_levels = forms.IntegerField(
        initial=0, required=False, help_text="Rebuys until this level ends (0: no rebuys)."
    )
    max_rebuys = forms.IntegerField(initial=0, required=False, help_text="Rebuys per player.")
    addon_chips = forms.IntegerField(
        initial=0, required=False, help_text="The add-on's chips (0: none)."
    )
    addon_price = forms.IntegerField(initial=0, required=False, help_text="In points.")
    break_every_minutes = forms.IntegerField(initial=0, help_text="0: no breaks.")
    break_minutes = forms.IntegerField(initial=0)
    payout_percentages = forms.CharField(
        required=False, help_text="e.g. 50, 30, 20 (empty: by field size)."
    )
    points_scope = forms.CharField(initial="site")

    class Meta:
        model = Tournament
        fields: list[str] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():  # the API says the same (serializers.py)
            field.error_messages.update(schedule_messages.for_field(name))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        given = self._given(data)
        if given is None or self.errors:
            return data
        try:
            self.settings = TournamentSettings(**given)
            paying_club(self.settings.points_scope)  # read only: the view schedules
        except BadSettings as error:
            self.refused(error)
        return data

    def _given(self, data: dict[str, Any]) -> dict[str, Any] | None:
        """The settings' values from the cleaned fields (None: unreadable)."""
        given = {k: v for k, v in data.items() if k not in ("levels", "payout_percentages")}
        for name in ZERO_WHEN_EMPTY:  # left empty: none
            given[name] = given.get(name) or 0
        given["game"] = given.get("game") or Table.Game.NO_LIMIT_HOLDEM.value
        try:
            if data.get("levels"):
                given["levels"] = json.loads(data["levels"])
        except (ValueError, TypeError):
            self.add_error("levels", "The levels could not be read: give them as JSON.")
            return None
        payouts = _payouts(data.get("payout_percentages", ""))
        if payouts is False:
            self.add_error(
                "payout_percentages",
                "Give the payouts as whole percentages with commas between, such as 50, 30, 20.",
            )
            return None
        if payouts is not None:
            given["payout_percentages"] = payouts
        return given

    def refused(self, error: TournamentError) -> None:
        """Show a refusal of these settings (or of the scheduling) on the form: a bad
        setting under its field, anything else above the fields."""
        if isinstance(error, BadSettings):
            add_to_form(self, error, _FIELD_OF.get(error.code))
        else:  # no longer the club's admin, say
            add_to_form(self, error)


def _payouts(text: str) -> list[int] | None | bool:
    """Percentages typed with commas; None when empty, False when unreadable."""
    if not text.strip():
        return None
    try:
        return [int(p) for p in text.split(",")]
    except ValueError:
        return False

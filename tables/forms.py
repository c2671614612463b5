"""The forms behind /tables/new/ and /tables/practice/."""

from __future__ import annotations

from typing import Any

from django import forms

MIN_SEATS, MAX_SEATS = 2, 6
MIN_BOTS, MAX_BOTS = 1, 5


class NewTableForm(forms.Form):
    """A friends' table: its name, size, blinds, starting chips and clock."""

    name = forms.CharField(max_length=60, initial="Friday game")
    seat_count = forms.IntegerField(
        label="Seats", min_value=MIN_SEATS, max_value=MAX_SEATS, initial=6
    )
    small_blind = forms.IntegerField(min_value=1, max_value=1_000_000, initial=10)
    big_blind = forms.IntegerField(min_value=1, max_value=1_000_000, initial=20)
    starting_stack = forms.IntegerField(min_value=1, max_value=100_000_000, initial=1500)
    action_seconds = forms.IntegerField(
        label="Seconds per decision",
        min_value=5,
        max_value=120,
        initial=20,
        help_text="Plus each player's time bank.",
    )

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        small, big = cleaned.get("small_blind"), cleaned.get("big_blind")
        stack = cleaned.get("starting_stack")
        if small is not None and big is not None and big < small:
            self.add_error("big_blind", "The big blind cannot be smaller than the small blind.")
        elif big is not None and stack is not None and stack < 2 * big:
            self.add_error("starting_stack", "Start with at least two big blinds.")
        return cleaned


class PracticeForm(forms.Form):
    """How many bots to play against."""

    bots = forms.IntegerField(
        label="Number of bots", min_value=MIN_BOTS, max_value=MAX_BOTS, initial=MAX_BOTS
    )

"""A club's forms: scheduling its tournament (on the club's page), creating a club,
joining one by its link, and an admin's points adjustment.

None writes: each hands its cleaned values (the scheduling form a
``TournamentSettings``) to the view, which calls the club service."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.utils import timezone

import engine
from config.platform.domain_errors import add_to_form
from tournaments import level_rows
from tournaments.errors import BadSettings, TournamentError
from tournaments.forms import ScheduleTournamentForm


class ClubScheduleForm(ScheduleTournamentForm):
    """A club admin's form on the club's page: the start in the admin's own time zone
    (``time_zone``, the browser's, filled in by the page's script; UTC without it), and
    levels and breaks as rows (``tournaments/level_rows.py``). Always the club's points."""

    starts_at = forms.DateTimeField(
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text="In your time zone.",
    )
    time_zone = forms.CharField(required=False, initial="UTC", widget=forms.HiddenInput)
    structure = forms.ChoiceField(
        choices=[(n, n.title()) for n in engine.STRUCTURES], widget=forms.HiddenInput
    )
    starting_stack = forms.IntegerField(
        required=False,
        initial=engine.STRUCTURES["regular"].starting_stack,
        help_text="Chips each player starts with (empty: the preset's).",
    )
    late_registration_levels = forms.IntegerField(
        initial=0, help_text="Registration stays open until this level ends (0: until the start)."
    )

    BASIC = ("name", "game", "starts_at", "buy_in", "seats_per_table", "max_entrants")
    PAYOUTS = ("payout_percentages",)
    STRUCTURE = (
        "starting_stack",
        "late_registration_levels",
        "bounty",
        "progressive_bounty",
        "max_reentries",
        "rebuy_levels",
        "max_rebuys",
        "addon_chips",
        "addon_price",
    )

    def __init__(
        self,
        *args: Any,
        club_slug: str,
        admin: Any,
        rows: list[level_rows.Row] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.club_slug, self.admin = club_slug, admin
        for name in ("points_scope", "levels", "break_every_minutes", "break_minutes"):
            del self.fields[name]
        self.fields["structure"].initial = "regular"
        if self.is_bound:
            posted = level_rows.posted_rows(self.data)
            self.rows = posted if posted is not None else []
            self.are_rows_broken = posted is None
        else:
            self.rows = rows if rows is not None else level_rows.preset_rows("regular")
            self.are_rows_broken = False

    def group(self, names: tuple[str, ...]) -> list[forms.BoundField]:
        return [self[name] for name in names]

    def basic_fields(self) -> list[forms.BoundField]:
        return self.group(self.BASIC)

    def structure_fields(self) -> list[forms.BoundField]:
        return self.group(self.STRUCTURE)

    def payout_fields(self) -> list[forms.BoundField]:
        return self.group(self.PAYOUTS)

    def clean_time_zone(self) -> ZoneInfo:
        name = self.cleaned_data["time_zone"] or "UTC"
        try:
            if len(name) > 64:  # the longest zone name is 30-odd characters
                raise ValueError(name)
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            # the page says this field's problem by the start, the field the person sees
            raise forms.ValidationError(
                f"Felt does not know the time zone {name[:64]!r}; the start was not read. "
                "Reload the page and try again."
            ) from None

    def clean(self) -> dict[str, Any]:
        if "time_zone" in self.errors:
            self.add_error("starts_at", self.errors.pop("time_zone")[0])
        return super().clean()

    def _given(self, data: dict[str, Any]) -> dict[str, Any] | None:
        starts_at = _in_zone(data["starts_at"], data["time_zone"])
        if isinstance(starts_at, str):
            self.add_error("starts_at", starts_at)
            return None
        given = super()._given(data)
        if given is None:
            return None
        del given["time_zone"]
        given["starts_at"] = starts_at
        if self.are_rows_broken:
            self.add_error(None, "The level rows arrived incomplete: reload the page.")
            return None
        read = level_rows.read_rows(self.rows)
        if read.has_errors:
            self.add_error(None, "Some level rows need fixing: see the rows marked below.")
            return None
        if read.levels != [
            {"small_blind": level.small_blind, "big_blind": level.big_blind,
             "ante": level.ante, "minutes": level.minutes}
            for level in engine.STRUCTURES[data["structure"]].levels
        ]:  # fmt: skip
            given["levels"] = read.levels  # a preset left as it is stays by its name
        if read.breaks:
            given["breaks"] = read.breaks
        self.read_rows = read
        return given

    def refused(self, error: TournamentError) -> None:
        if not isinstance(error, BadSettings) or error.code not in ("bad_levels", "bad_breaks"):
            super().refused(error)
            return
        rows = {"bad_levels": self.read_rows.level_rows, "bad_breaks": self.read_rows.break_rows}
        if error.number is not None:
            self.rows[rows[error.code][error.number - 1]].error = error.message
            self.add_error(None, "Some level rows need fixing: see the rows marked below.")
        else:
            add_to_form(self, error)


def _in_zone(local: datetime, zone: ZoneInfo) -> datetime | str:
    """The instant a wall-clock time names in ``zone`` (the form read it as the site's,
    UTC), or why it names none. A time the clocks skip (spring forward) is refused; a
    time they pass twice (fall back) is the first of the two."""
    wall = timezone.make_naive(local, timezone.get_current_timezone())
    instant = wall.replace(tzinfo=zone, fold=0)
    if instant.astimezone(UTC).astimezone(zone).replace(tzinfo=None) != wall:
        return (
            f"{wall:%H:%M} on {wall:%a %-d %b} does not exist in {zone.key}: the clocks go "
            "forward then. Pick another time."
        )
    return instant.astimezone(UTC)


class ClubForm(forms.Form):
    name = forms.CharField(max_length=60)
    description = forms.CharField(
        max_length=280, required=False, widget=forms.Textarea(attrs={"rows": 2})
    )


class JoinByLinkForm(forms.Form):
    """The invitation link as pasted: /clubs/<slug>/join/<token>/ (the whole address)."""

    link = forms.CharField(max_length=300, label="Invitation link")

    def clean_link(self) -> tuple[str, str]:
        found = _INVITATION.search(self.cleaned_data["link"])
        if found is None:
            raise forms.ValidationError("Paste the whole invitation link an admin sent you.")
        return found["slug"], found["token"]


_INVITATION = re.compile(r"/clubs/(?P<slug>[-a-z0-9_]+)/join/(?P<token>[-A-Za-z0-9_]+)/?")


class PointsAdjustmentForm(forms.Form):
    """An admin's credit or debit: ``usernames`` are the club's members to choose from."""

    username = forms.ChoiceField(label="Member")
    amount = forms.IntegerField(help_text="Negative to take points.")
    reason = forms.CharField(max_length=200)

    def __init__(self, *args: Any, usernames: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        member = self.fields["username"]
        assert isinstance(member, forms.ChoiceField)
        member.choices = [("", "—"), *((u, u) for u in usernames)]

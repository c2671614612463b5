"""A club's forms: scheduling its tournament (on the club's page), creating a club,
joining one by its link, and an admin's points: an adjustment, a grant to every
member, and the points given on joining.

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
from tournaments import level_rows, schedule_messages
from tournaments.errors import BadSettings, TournamentError
from tournaments.forms import ScheduleTournamentForm
from tournaments.models import MAX_REPEAT_DAYS
from tournaments.tournament_settings import MAX_BREAK_MINUTES, MAX_LEVEL_MINUTES


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
    repeats = forms.ChoiceField(
        label="Repeats",
        choices=[("", "No, once"), ("weekly", "Every week"), ("days", "Every few days")],
        required=False,
        help_text="Each game is a tournament of its own, listed ahead in the club "
        "until you stop it.",
    )
    repeat_every_days = forms.IntegerField(
        label="Days between games",
        required=False,
        min_value=1,
        max_value=MAX_REPEAT_DAYS,
        help_text="With “Every few days”.",
        error_messages=schedule_messages.whole_number("repeat_every_days", 1, MAX_REPEAT_DAYS),
    )

    BASIC = (
        "name",
        "game",
        "starts_at",
        "repeats",
        "repeat_every_days",
        "buy_in",
        "seats_per_table",
        "max_entrants",
    )
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
        self.every_days = self._every_days(data)
        self.zone_name = data["time_zone"].key
        given = super()._given(data)
        if given is None:
            return None
        for name in ("time_zone", "repeats", "repeat_every_days"):
            del given[name]
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

    def _every_days(self, data: dict[str, Any]) -> int | None:
        """Days between the games of a repeating tournament (None: once)."""
        if data.get("repeats") == "weekly":
            return 7
        if data.get("repeats") != "days":
            return None
        if data.get("repeat_every_days") is None:
            self.add_error("repeat_every_days", "Give the days between games.")
        return data.get("repeat_every_days")

    def refused(self, error: TournamentError) -> None:
        if isinstance(error, BadSettings) and error.code == "bad_repeat":
            add_to_form(self, error, "repeat_every_days")
            return
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


TARGET_HOURS = ("1", "1.5", "2", "2.5", "3", "4", "5", "6")


def _whole(name: str, label: str, low: int, high: int, initial: int, help_text: str = "") -> Any:
    return forms.IntegerField(
        label=label,
        min_value=low,
        max_value=high,
        initial=initial,
        help_text=help_text,
        error_messages=schedule_messages.whole_number(name, low, high),
    )


class QuickStructureForm(forms.Form):
    """The few choices that fill the level rows (``engine.quick_structure``), posted with
    the scheduling form under the prefix ``quick`` by its own button: it fills the rows
    and schedules nothing."""

    prefix = "quick"
    starting_stack = _whole("starting_stack", "Starting stack", 2, 10**9, 5000)
    level_minutes = _whole("level_minutes", "Minutes per level", 1, MAX_LEVEL_MINUTES, 15)
    speed = forms.ChoiceField(
        label="Blinds rise",
        choices=[("slow", "Slowly (×1.25 a level)"), ("steady", "Steadily (×1.4)"),
                 ("fast", "Fast (×1.7)")],
        initial="steady",
        error_messages=schedule_messages.choice("speed", list(engine.SPEEDS)),
    )  # fmt: skip
    target_hours = forms.ChoiceField(
        label="Or finish in about",
        choices=[("", "— (by the speed)"), *((h, f"{h} hours") for h in TARGET_HOURS)],
        required=False,
        help_text="Sets the speed so the big blind is a starting stack by then.",
        error_messages=schedule_messages.choice("target_hours", list(TARGET_HOURS)),
    )
    break_every_levels = _whole(
        "break_every_levels", "A break every", 0, 20, 0, "levels (0: no breaks)."
    )
    break_minutes = _whole("break_minutes", "Break minutes", 1, MAX_BREAK_MINUTES, 10)

    def structure(self) -> engine.QuickStructure:
        data = self.cleaned_data
        hours = data["target_hours"]
        return engine.quick_structure(
            starting_stack=data["starting_stack"],
            level_minutes=data["level_minutes"],
            speed=data["speed"],
            target_minutes=round(float(hours) * 60) if hours else None,
            break_every_levels=data["break_every_levels"],
            break_minutes=data["break_minutes"],
        )


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


class GrantAllForm(forms.Form):
    """The same club points for every member at once, with the reason."""

    amount = forms.IntegerField(min_value=1, label="Points for each member")
    reason = forms.CharField(max_length=200)


class JoiningPointsForm(forms.Form):
    amount = forms.IntegerField(
        min_value=0,
        label="Points given on joining",
        help_text="Club points each new member gets once, when they join (0: none).",
    )

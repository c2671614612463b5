"""Forms: scheduling a multi-table tournament (staff in the admin, a club's admins on
its page), creating a club, joining one by its link, and an admin's points adjustment.

Each reads its fields and hands them to a service, whose refusals become the form's
errors."""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms

import engine
from tournaments import services
from tournaments.errors import BadSettings, TournamentError
from tournaments.models import Tournament

# Which form field a refusal's code belongs to.
_FIELD_OF = {
    "bad_name": "name",
    "bad_starts_at": "starts_at",
    "bad_buy_in": "buy_in",
    "bad_seats": "seats_per_table",
    "bad_max_entrants": "max_entrants",
    "bad_structure": "structure",
    "bad_levels": "levels",
    "bad_starting_stack": "starting_stack",
    "bad_late_registration": "late_registration_levels",
    "bad_breaks": "break_every_minutes",
    "bad_payouts": "payout_percentages",
    "bad_points_scope": "points_scope",
}


class ScheduleTournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    name = forms.CharField(max_length=200)
    starts_at = forms.DateTimeField(help_text="In the site's time zone.")
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
    break_every_minutes = forms.IntegerField(initial=0, help_text="0: no breaks.")
    break_minutes = forms.IntegerField(initial=0)
    payout_percentages = forms.CharField(
        required=False, help_text="e.g. 50, 30, 20 (empty: by field size)."
    )
    points_scope = forms.CharField(initial="site")

    class Meta:
        model = Tournament
        fields: list[str] = []

    def __init__(self, *args: Any, club_slug: str | None = None, admin: Any = None, **kwargs: Any):
        """With ``club_slug``, an admin of that club schedules for it (in its points)."""
        super().__init__(*args, **kwargs)
        self.club_slug, self.admin = club_slug, admin
        if club_slug is not None:
            del self.fields["points_scope"]
            self.fields["starts_at"].widget = forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        settings = {k: v for k, v in data.items() if k not in ("levels", "payout_percentages")}
        try:
            if data.get("levels"):
                settings["levels"] = json.loads(data["levels"])
            if data.get("payout_percentages"):
                parts = data["payout_percentages"].split(",")
                settings["payout_percentages"] = [int(p) for p in parts]
        except (ValueError, TypeError):
            self.add_error(
                "levels" if "levels" in settings else "payout_percentages", "Unreadable."
            )
            return data
        try:
            if self.club_slug is not None:
                self.scheduled = services.club_tournament_schedule(
                    slug=self.club_slug, admin=self.admin, **settings
                )
            else:
                self.scheduled = services.schedule_tournament(**settings)
        except BadSettings as error:
            self.add_error(_FIELD_OF.get(error.code), error.message)
        except TournamentError as error:  # no longer the club's admin, say
            self.add_error(None, error.message)
        return data


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

"""Tournaments in the admin: read them, and cancel one that has not finished (every
buy-in is refunded, through tournaments.services). Nothing is edited by hand: a
place, prize or pool typed in would not match the ledger."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from config.platform.admin_lookups import SidebarFiltersOnly
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.forms import ScheduleTournamentForm
from tournaments.models import Club, Entry, Membership, Tournament


class EntryInline(admin.TabularInline[Entry, Tournament]):
    model = Entry
    fields = ("name", "user", "is_bot", "buy_in", "place", "prize", "chips_at_elimination")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(SidebarFiltersOnly):
    list_display = ("pk", "title", "status", "kind", "buy_in", "prize_pool", "started_at")
    list_filter = ("status", "kind", "structure")
    readonly_fields = (
        "kind",
        "structure",
        "buy_in",
        "seats",
        "status",
        "prize_pool",
        "owner",
        "created_at",
        "started_at",
        "ended_at",
        "announced_level",
        "level_seconds",
    )
    inlines = [EntryInline]
    actions = ["cancel_and_refund"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Adding schedules a multi-table tournament (through schedule_tournament); the
        # lobby opens its SNGs itself (tournaments.services.sngs_ensure_open).
        return request.user.is_staff

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is None:
            return ScheduleTournamentForm
        return super().get_form(request, obj, change, **kwargs)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return [(None, {"fields": list(ScheduleTournamentForm.declared_fields)})]
        return super().get_fieldsets(request, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return () if obj is None else self.readonly_fields

    def get_inlines(self, request: HttpRequest, obj: Any = None) -> Any:
        return [] if obj is None else self.inlines

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if change:
            return  # nothing is edited by hand
        # the form checked the settings; the service saves the row the admin then shows
        scheduled = services.schedule_tournament(settings=form.settings)
        obj.__dict__.update({k: v for k, v in scheduled.__dict__.items() if not k.startswith("_")})

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # its ledger rows refer to it: cancel instead

    @admin.action(description="Cancel, refunding every buy-in")
    def cancel_and_refund(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset.order_by("pk"):
            try:
                services.tournament_cancel(tournament_id=tournament.pk)
            except TournamentError as error:
                self.message_user(request, f"#{tournament.pk}: {error.message}", messages.ERROR)
            else:
                self.message_user(
                    request, f"#{tournament.pk} cancelled; every buy-in refunded.", messages.SUCCESS
                )


class MembershipInline(admin.TabularInline[Membership, Club]):
    model = Membership
    fields = ("user", "role", "status", "joined_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Club)
class ClubAdmin(SidebarFiltersOnly):
    """Clubs, read-only: their owners and admins run them on the club's page (members,
    points and tournaments move through tournaments.clubs.services). The invitation
    token is neither shown nor a lookup (config/platform/admin_lookups.py)."""

    list_display = ("name", "slug", "created_at")
    search_fields = ("name", "slug")
    readonly_fields = ("name", "slug", "description", "created_at")
    exclude = ("invite_token",)  # the members' secret: staff need not hold it
    inlines = [MembershipInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.method == "GET"  # to view the page, never to save it

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # its tournaments' ledger rows refer to them

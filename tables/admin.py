"""Admin pages for tables and hands.

Staff may play too, so the admin never shows a hand that is still being
played: not the live event log (it holds the deck and every hole card), not
the hole cards of an unfinished hand, and not through a change list's query
string either (config/platform/admin_lookups.py).
"""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from config.platform.admin_lookups import SidebarFiltersOnly
from tables.models import Hand, HandPlayer, Seat, Table


class SeatInline(admin.TabularInline[Seat, Table]):
    model = Seat
    extra = 0
    fields = ("number", "user", "is_bot", "bot_name", "stack", "is_sitting_out", "time_bank")
    readonly_fields = fields


@admin.register(Table)
class TableAdmin(SidebarFiltersOnly):
    list_display = ("name", "kind", "owner", "seat_count", "big_blind", "hand_number", "seq")
    list_filter = ("kind",)
    search_fields = ("name", "owner__username")
    exclude = ("hand_events",)
    readonly_fields = ("seq", "deadline", "wake_at", "next_hand_at")
    inlines = [SeatInline]


class HandPlayerInline(admin.TabularInline[HandPlayer, Hand]):
    model = HandPlayer
    extra = 0
    fields = ("seat", "name", "hole_cards", "starting_stack", "net", "was_shown")
    readonly_fields = fields


@admin.register(Hand)
class HandAdmin(SidebarFiltersOnly):
    list_display = ("__str__", "table", "started_at", "ended_at")
    # The salts settle a dispute over a finished hand; during one they would give
    # away every card (engine.fairness), like the event log.
    readonly_fields = (
        "events",
        "phh",
        "pots",
        "final_stacks",
        "commitment",
        "deck_leaves",
        "deck_salts",
        "log_pending",  # the public log's own mark (tables/fairness_log/append.py)
    )
    inlines = [HandPlayerInline]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = super().get_fields(request, obj)
        if obj is None or obj.ended_at is None:
            return [f for f in fields if f not in ("events", "phh", "deck_salts", "deck_leaves")]
        return fields

    def get_inlines(self, request: HttpRequest, obj: Any) -> Any:
        return self.inlines if obj is not None and obj.ended_at is not None else []

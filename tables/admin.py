from django.contrib import admin

from tables.models import Hand, HandPlayer, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "is_bot", "bot_name", "stack", "is_sitting_out", "time_bank")
    readonly_fields = fields


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "owner", "seat_count", "big_blind", "hand_number", "seq")
    list_filter = ("kind",)
    search_fields = ("name", "owner__username")
    readonly_fields = ("hand_events", "seq", "deadline", "wake_at", "next_hand_at")
    inlines = [SeatInline]


class HandPlayerInline(admin.TabularInline):
    model = HandPlayer
    extra = 0
    fields = ("seat", "name", "hole_cards", "starting_stack", "net", "was_shown")
    readonly_fields = fields


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ("__str__", "table", "started_at", "ended_at")
    readonly_fields = ("events", "phh", "pots", "final_stacks")
    inlines = [HandPlayerInline]

from django.contrib import admin

from .models import ActionRequest, Match, MatchEvent, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("seat", "user", "bot", "deck", "time_bank")
    raw_id_fields = ("user", "deck")


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "status", "ruleset", "version", "winner_seat", "result", "created")
    list_filter = ("status", "ruleset", "casual")
    # The state holds hidden cards and the seed: staff see it only here, never in the API.
    # (`state` is the current position, the snapshot replayed to `version`.)
    readonly_fields = ("state", "snapshot_version", "legal_ids", "version", "seq")
    exclude = ("snapshot",)
    inlines = [SeatInline]


@admin.register(ActionRequest)
class ActionRequestAdmin(admin.ModelAdmin):
    list_display = ("id", "match", "seat", "action", "status", "code", "applied_version")
    list_filter = ("status",)
    raw_id_fields = ("match",)


@admin.register(MatchEvent)
class MatchEventAdmin(admin.ModelAdmin):
    list_display = ("id", "match", "seq", "version")
    raw_id_fields = ("match",)

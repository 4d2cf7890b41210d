from django.contrib import admin

from .models import (
    AuditEntry,
    ForbiddenPair,
    OnlineGame,
    Penalty,
    Prize,
    Registration,
    Round,
    TableSet,
    Tournament,
)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "organiser"]
    search_fields = ["name"]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["tournament", "player"]
    raw_id_fields = ["player"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number"]


@admin.register(TableSet)
class MatchAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "tournament",
        "stage",
        "table",
        "player_a",
        "player_b",
        "games_a",
        "games_b",
    ]


@admin.register(OnlineGame)
class OnlineGameAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "game", "winner", "judge_reason"]
    raw_id_fields = ["match", "game", "winner"]


@admin.register(ForbiddenPair)
class ForbiddenPairAdmin(admin.ModelAdmin):
    list_display = ["tournament", "player_a", "player_b", "reason", "created_by"]


@admin.register(Prize)
class PrizeAdmin(admin.ModelAdmin):
    list_display = ["tournament", "place", "card"]
    raw_id_fields = ["card"]


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    """Read here; given through the dashboard or the API (tournaments/penalties.py), so
    that the effect on the match and the audit entry are never skipped."""

    list_display = ["tournament", "registration", "kind", "infraction", "applied", "created"]
    raw_id_fields = ["registration", "match", "given_by"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["tournament", "actor", "action", "created"]

    def has_change_permission(self, request, obj=None):
        return False  # the audit log is append-only

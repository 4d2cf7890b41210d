from django.contrib import admin

from .models import CollectionEntry, Deck, DeckCard, DeckVersion


class DeckCardInline(admin.TabularInline):
    model = DeckCard
    raw_id_fields = ["card"]
    extra = 0


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "ruleset", "is_public", "is_legal", "card_count", "updated"]
    list_filter = ["ruleset", "is_public", "is_legal"]
    search_fields = ["name", "owner__username"]
    inlines = [DeckCardInline]


@admin.register(DeckVersion)
class DeckVersionAdmin(admin.ModelAdmin):
    list_display = ["deck", "number", "created", "comment"]
    readonly_fields = [
        "deck",
        "number",
        "name",
        "description",
        "ruleset",
        "cards",
        "comment",
        "created",
    ]

    def has_change_permission(self, request, obj=None):
        return False  # versions are immutable


@admin.register(DeckCard)
class DeckCardAdmin(admin.ModelAdmin):
    list_display = ["deck", "card", "count"]
    raw_id_fields = ["deck", "card"]


@admin.register(CollectionEntry)
class CollectionEntryAdmin(admin.ModelAdmin):
    list_display = ["owner", "card", "count"]
    raw_id_fields = ["card"]
    search_fields = ["owner__username", "card__name", "card__code"]

from django.contrib import admin

from .models import Card, Edition, Keyword


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "name_en", "race", "type", "subtype", "rarity", "credit_cost"]
    list_filter = ["race", "type", "rarity", "clan", "edition"]
    search_fields = ["code", "name", "name_en", "search_name"]
    filter_horizontal = ["keywords"]


@admin.register(Edition)
class EditionAdmin(admin.ModelAdmin):
    list_display = ["code", "name_hu", "name_en", "prefix"]


@admin.register(Keyword)
class KeywordAdmin(admin.ModelAdmin):
    list_display = ["slug", "name_hu", "name_en"]

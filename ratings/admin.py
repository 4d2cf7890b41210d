from django.contrib import admin

from .models import OptIn, RatedGame, Rating, RatingChange, Season


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "start", "end")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "season", "number", "games", "mu", "sigma")
    list_filter = ("season",)
    raw_id_fields = ("user",)


admin.site.register(OptIn)
admin.site.register(RatedGame)
admin.site.register(RatingChange)

from django.contrib import admin

from .models import Block, Follow


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin):
    list_display = ("follower", "followed", "created")
    search_fields = ("follower__username", "followed__username")
    raw_id_fields = ("follower", "followed")


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    """Staff can see who blocks whom (a moderator's question: who is being avoided)."""

    list_display = ("blocker", "blocked", "created")
    search_fields = ("blocker__username", "blocked__username")
    raw_id_fields = ("blocker", "blocked")

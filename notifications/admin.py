from django.contrib import admin

from .models import Notification, NotificationSettings


@admin.register(NotificationSettings)
class NotificationSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "language", "email_unsubscribed", "updated")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "created", "read_at", "on_site", "pending")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    raw_id_fields = ("user", "actor")

from django.urls import path

from . import views

app_name = "quickplay"
urlpatterns = [
    path("join/", views.join, name="join"),
    path("leave/", views.leave, name="leave"),
    path("bot/", views.bot, name="bot"),
    path("status/", views.status, name="status"),
]

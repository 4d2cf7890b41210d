"""A player's public page, /<lang>/players/<user name>/ (any user name: `path`)."""

from django.urls import path

from . import views

urlpatterns = [path("<path:username>/", views.player, name="player")]

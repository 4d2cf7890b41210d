from django.urls import path

from . import views

app_name = "matches"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("live/", views.live, name="live"),
    path("<int:pk>/", views.game, name="game"),
    path("<int:pk>/replay/", views.replay, name="replay"),
    path("faces/", views.faces, name="faces"),
]

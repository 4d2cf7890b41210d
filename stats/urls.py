from django.urls import path

from . import views

app_name = "stats"
urlpatterns = [
    path("", views.metagame, name="metagame"),
    path("cards/<str:code>/", views.card, name="card"),
    path("decks/<int:pk>/", views.deck, name="deck"),
    # any user name (a slash too), as accounts/player_urls.py
    path("players/<path:username>/", views.player, name="player"),
    path("events/<int:pk>/", views.event, name="event"),
]

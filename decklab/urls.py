from django.urls import path

from . import views

app_name = "decklab"
urlpatterns = [
    path("decks/<int:deck_pk>/", views.deck_lab, name="deck"),
    path("runs/<int:pk>/", views.run_page, name="run"),
]

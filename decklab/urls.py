from django.urls import path

from . import advice_views, views

app_name = "decklab"
urlpatterns = [
    path("decks/<int:deck_pk>/", views.deck_lab, name="deck"),
    path("runs/<int:pk>/", views.run_page, name="run"),
    path("decks/<int:deck_pk>/advice/", advice_views.deck_advice, name="advice"),
    path("advice/<int:pk>/", advice_views.advice_run, name="advice-run"),
    path("advice/<int:pk>/cancel/", advice_views.cancel_advice, name="advice-cancel"),
    path("advice/<int:pk>/apply/", advice_views.apply_advice, name="advice-apply"),
]

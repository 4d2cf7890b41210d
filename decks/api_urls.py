from django.urls import include, path
from rest_framework.routers import DefaultRouter

from . import api

router = DefaultRouter()
router.register("decks", api.DeckViewSet, basename="deck")

urlpatterns = [
    path("decks/validate/", api.validate, name="deck-validate"),
    path("decks/import/", api.import_deck, name="deck-import"),
    path("collection/", api.collection, name="collection"),
    path("collection/booster/", api.open_booster_view, name="collection-booster"),
    path("", include(router.urls)),
]

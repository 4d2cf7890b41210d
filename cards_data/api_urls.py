from django.urls import include, path
from rest_framework.routers import DefaultRouter

from . import api

router = DefaultRouter()
router.register("cards", api.CardViewSet, basename="card")
router.register("sets", api.EditionViewSet, basename="set")

urlpatterns = [
    path("cards/export/", api.bulk_export, name="cards-export"),
    path("races/", api.races, name="races"),
    path("types/", api.types, name="types"),
    path("rarities/", api.rarities, name="rarities"),
    path("clans/", api.clans, name="clans"),
    path("keywords/", api.keywords, name="keywords"),
    path("", include(router.urls)),
]

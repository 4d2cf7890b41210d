from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from cards_data import views as card_views

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include("decks.api_urls")),
    path("api/", include("cards_data.api_urls")),
    path("api/", include("tournaments.api_urls")),
    path("api/", include("matches.api_urls")),
    path("api/", include("decklab.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # the split view serves Swagger UI's start-up script as a file of its own: no inline
    # script, so the Content-Security-Policy holds on the API docs too
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("healthz", card_views.healthz, name="healthz"),
]

urlpatterns += i18n_patterns(
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("players/", include("accounts.player_urls")),
    path("decks/", include("decks.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("lab/", include("decklab.urls")),
    path("play/", include("matches.urls")),
    path("stats/", include("stats.urls")),
    path("friends/", include("social.urls")),
    path("ratings/", include("ratings.urls")),
    path("quickplay/", include("quickplay.urls")),
    path("notifications/", include("notifications.urls")),
    path("", include("cards_data.urls")),
    prefix_default_language=True,
)

handler404 = "cardgame.errors.page_not_found"
handler403 = "cardgame.errors.permission_denied"
handler500 = "cardgame.errors.server_error"

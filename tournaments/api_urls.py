from django.urls import path

from . import api

urlpatterns = [
    path("tournaments/", api.tournament_list, name="tournament-list"),
    path("tournaments/<int:pk>/", api.tournament_detail, name="tournament-detail"),
    path("tournaments/<int:pk>/register/", api.register, name="tournament-register"),
    path("tournaments/<int:pk>/check-in/", api.check_in, name="tournament-check-in"),
    path("tournaments/<int:pk>/drop/", api.drop, name="tournament-drop"),
    path("tournaments/<int:pk>/late-entry/", api.late_entry, name="tournament-late-entry"),
    path("tournaments/<int:pk>/start/", api.start, name="tournament-start"),
    path("tournaments/<int:pk>/rounds/", api.rounds, name="tournament-rounds"),
    path("tournaments/<int:pk>/rounds/<int:number>/", api.round_detail, name="tournament-round"),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/publish/",
        api.publish,
        name="tournament-round-publish",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/repair/",
        api.repair,
        name="tournament-round-repair",
    ),
    path(
        "tournaments/<int:pk>/forbidden-pairs/",
        api.forbidden_pairs,
        name="tournament-forbidden-pairs",
    ),
    path(
        "tournaments/<int:pk>/forbidden-pairs/<int:pair_id>/",
        api.forbidden_pair_detail,
        name="tournament-forbidden-pair",
    ),
    path("tournaments/<int:pk>/penalties/", api.penalties_view, name="tournament-penalties"),
    path("tournaments/<int:pk>/standings/", api.standings, name="tournament-standings"),
    path("tournaments/<int:pk>/audit/", api.audit, name="tournament-audit"),
    path("tournaments/<int:pk>/playoff/", api.playoff, name="tournament-playoff"),
    path("tournaments/<int:pk>/finish/", api.finish, name="tournament-finish"),
    path("tournaments/<int:pk>/bracket/", api.bracket, name="tournament-bracket"),
    path("tournaments/<int:pk>/prizes/", api.prizes, name="tournament-prizes"),
    path(
        "tournament-registrations/<int:pk>/<str:action>/",
        api.registration_action,
        name="tournament-registration-action",
    ),
    path("tournament-matches/<int:pk>/", api.match_detail, name="tournament-match"),
    path(
        "tournament-matches/<int:pk>/<str:action>/",
        api.match_action,
        name="tournament-match-action",
    ),
]

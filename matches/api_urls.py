from django.urls import path

from . import api

urlpatterns = [
    path("matches/", api.match_list, name="matches-list"),
    path("matches/<int:pk>/", api.match_detail, name="matches-detail"),
    path("matches/<int:pk>/accept/", api.match_accept, name="matches-accept"),
    path("matches/<int:pk>/decline/", api.match_decline, name="matches-decline"),
    path("matches/<int:pk>/cancel/", api.match_cancel, name="matches-cancel"),
    path("matches/<int:pk>/concede/", api.match_concede, name="matches-concede"),
    path("matches/<int:pk>/join/", api.match_join, name="matches-join"),
    path("matches/<int:pk>/leave/", api.match_leave, name="matches-leave"),
    path("matches/<int:pk>/start/", api.match_start, name="matches-start"),
    path("matches/<int:pk>/actions/", api.match_actions, name="matches-actions"),
    path(
        "matches/<int:pk>/actions/<int:request_id>/",
        api.match_action_status,
        name="matches-action-status",
    ),
    path("matches/<int:pk>/events/", api.match_events, name="matches-events"),
    path("matches/<int:pk>/replay/", api.match_replay, name="matches-replay"),
]

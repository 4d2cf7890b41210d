from django.urls import path

from . import views, views_actions

app_name = "tournaments"
urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views_actions.create, name="new"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/standings/", views.standings, name="standings"),
    path("<int:pk>/rounds/<int:number>/pairings/", views.pairings, name="pairings"),
    path("<int:pk>/standings.csv", views.standings_csv, name="standings-csv"),
    path("<int:pk>/rounds/<int:number>/pairings.csv", views.pairings_csv, name="pairings-csv"),
    path("<int:pk>/screen/", views.screen, name="screen"),
    path("<int:pk>/decklists/<int:reg_id>/", views.decklist, name="decklist"),
    path("<int:pk>/dashboard/", views_actions.dashboard, name="dashboard"),
    path("<int:pk>/bracket/", views.bracket, name="bracket"),
    path("<int:pk>/do/<slug:action>/", views_actions.act, name="act"),
    path("matches/<int:pk>/<slug:action>/", views_actions.match_act, name="match-act"),
]

from django.urls import path

from . import api

urlpatterns = [
    path("decklab/runs/", api.start_run, name="decklab-start"),
    path("decklab/runs/<int:pk>/", api.run_detail, name="decklab-run"),
]

from django.urls import path

from . import api

urlpatterns = [
    path("decklab/runs/", api.start_run, name="decklab-start"),
    path("decklab/runs/<int:pk>/", api.run_detail, name="decklab-run"),
    path("decklab/advice/", api.start_advice, name="decklab-advice-start"),
    path("decklab/advice/<int:pk>/", api.advice_detail, name="decklab-advice"),
    path("decklab/advice/<int:pk>/cancel/", api.cancel_advice, name="decklab-advice-cancel"),
    path("decklab/advice/<int:pk>/apply/", api.apply_advice, name="decklab-advice-apply"),
]

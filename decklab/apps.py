from django.apps import AppConfig


class DecklabConfig(AppConfig):
    name = "decklab"
    verbose_name = "Deck lab"

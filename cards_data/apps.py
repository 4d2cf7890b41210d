from django.apps import AppConfig


class CardsDataConfig(AppConfig):
    name = "cards_data"
    verbose_name = "Card catalogue"

    def ready(self):
        from . import stamp  # noqa: F401 (connects the catalogue stamp's signals)

from django.apps import AppConfig


class CardsDataConfig(AppConfig):
    name = "cards_data"
    verbose_name = "Card catalogue"

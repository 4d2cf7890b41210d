from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self):
        from matches.signals import match_finished

        from .online import on_match_finished

        # a tournament game on the site records its result when it ends (online.py)
        match_finished.connect(on_match_finished, dispatch_uid="tournaments-online-game")

from django.apps import AppConfig


class StatsConfig(AppConfig):
    name = "stats"
    verbose_name = "Statistics"

    def ready(self):
        from matches.signals import match_finished

        from .receivers import queue_record_game

        match_finished.connect(queue_record_game, dispatch_uid="stats-record-game")

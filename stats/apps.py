from django.apps import AppConfig


class StatsConfig(AppConfig):
    name = "stats"
    verbose_name = "Statistics"

    def ready(self):
        from django.db.models.signals import post_save

        from matches.signals import match_finished
        from tournaments.models import Registration, Tournament

        from .receivers import keep_decklist_race, queue_event_report, queue_record_game

        match_finished.connect(queue_record_game, dispatch_uid="stats-record-game")
        post_save.connect(keep_decklist_race, sender=Registration, dispatch_uid="stats-lists")
        post_save.connect(queue_event_report, sender=Tournament, dispatch_uid="stats-events")

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """Opt-in ratings of games between people (openskill), seasons and the leaderboard
    (issue 37). Above matches: it listens to `matches.signals.match_finished`."""

    name = "ratings"
    verbose_name = "Ratings"

    def ready(self):
        from matches.signals import match_finished

        from .receivers import queue_rate_match

        match_finished.connect(queue_rate_match, dispatch_uid="ratings-rate-match")

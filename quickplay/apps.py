from django.apps import AppConfig


class QuickplayConfig(AppConfig):
    """Quick play: a queue per ruleset and time control that pairs two waiting people at
    once, by rating when there are enough of them, or offers a bot after a wait (issue 37)."""

    name = "quickplay"
    verbose_name = "Quick play"

    def ready(self):
        # registers the sweep task with Celery in every process (the beat names it)
        from . import tasks  # noqa: F401

from django.apps import AppConfig


class DecklabConfig(AppConfig):
    name = "decklab"
    verbose_name = "Deck lab"

    def ready(self):
        # registers the tasks with Celery in every process: advice's code queues them by
        # name (decklab/advice_queue.py); importing them before the registry is ready fails
        from . import tasks  # noqa: F401

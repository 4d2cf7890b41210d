from pathlib import Path

from django.apps import AppConfig
from django.utils.autoreload import autoreload_started


def watch_engine_sources(sender, **kwargs):
    """The compiled engine's modules load from build/engine-mypyc (engine/_build.py), so the
    dev server's autoreload would not see an edit of engine/*.py: watch those files too. After
    an edit the restarted server runs the pure-Python engine until `make setup` rebuilds."""
    import engine

    sender.watch_dir(Path(engine.__file__).resolve().parent, "*.py")


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    verbose_name = "Matches"

    def ready(self):
        autoreload_started.connect(watch_engine_sources, dispatch_uid="kgk-engine-sources")
        # registers the tasks with Celery in every process: the services queue them by
        # name (matches/queue.py); importing them before the app registry is ready fails
        from . import tasks  # noqa: F401

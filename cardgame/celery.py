"""Celery wiring. With no REDIS_URL the tasks run eagerly in-process (the embedded default)."""

import gc
import os

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardgame.settings")

app = Celery("cardgame")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def _freeze_startup_objects(**_kwargs):
    """Keep the loaded project out of the collector's full passes, which otherwise walk all
    of it in the middle of somebody's move (as cardgame/asgi.py does for the web process)."""
    gc.collect()
    gc.freeze()

"""Celery wiring. With no REDIS_URL the tasks run eagerly in-process (the embedded default)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardgame.settings")

app = Celery("cardgame")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

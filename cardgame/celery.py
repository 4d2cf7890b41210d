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


@app.task(ignore_result=True, acks_late=True)
def floor_ping(reply_key: str) -> None:
    """The least a task can do: push one item on a Redis list. bench/matches_bench.py times
    .delay() -> this push seen by the bench (the floor under every move's latency: the same
    broker, Redis and worker queue a drain goes through)."""
    import redis
    from django.conf import settings

    client = _floor_clients.get(settings.REDIS_URL)
    if client is None:
        client = _floor_clients[settings.REDIS_URL] = redis.Redis.from_url(settings.REDIS_URL)
    client.rpush(reply_key, b"1")
    client.expire(reply_key, 60)


_floor_clients = {}

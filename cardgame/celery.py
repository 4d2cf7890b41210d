"""Celery wiring. With no REDIS_URL the tasks run eagerly in-process (the embedded default)."""

import functools
import gc
import os
from collections.abc import Mapping

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardgame.settings")


class _CelerySettings(Mapping):
    """Django's CELERY_* settings, read once, when Celery first configures itself.

    Celery looks each setting up in its source on every access, and every setting the
    project leaves at Celery's default was a miss in Django's LazySettings (its Python
    `__getattr__` raising AttributeError), ~20 of them for each task published or run
    (bench/RESULTS.md, issue 16). A plain mapping misses in C. (Settings are not changed at run time; tests that need another
    broker update `app.conf` itself.)"""

    @functools.cached_property
    def _values(self) -> dict:
        from django.conf import settings

        return {
            name: getattr(settings, name) for name in dir(settings) if name.startswith("CELERY_")
        }

    def __getitem__(self, key):
        return self._values[key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)


app = Celery("cardgame")
app.config_from_object(_CelerySettings(), namespace="CELERY")
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

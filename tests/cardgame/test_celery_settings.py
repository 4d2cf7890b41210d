"""Celery's configuration is Django's CELERY_* settings (cardgame/celery.py reads them once
into a plain mapping: issue 16's cheaper publish)."""

from django.conf import settings

from cardgame.celery import app


def test_every_celery_setting_of_django_is_celerys():
    names = [name for name in dir(settings) if name.startswith("CELERY_")]
    assert "CELERY_TASK_ACKS_LATE" in names and "CELERY_BEAT_SCHEDULE" in names
    for name in names:
        assert app.conf[name[len("CELERY_") :].lower()] == getattr(settings, name), name


def test_a_setting_the_project_leaves_alone_is_celerys_default():
    from celery.app.defaults import DEFAULTS

    assert app.conf.task_publish_retry == DEFAULTS["task_publish_retry"]
    assert app.conf.worker_concurrency == DEFAULTS["worker_concurrency"]

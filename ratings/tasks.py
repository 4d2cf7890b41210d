"""Thin Celery task (an id in, nothing out): a finished rated game's ratings (services.py)."""

from celery import shared_task

from . import services


@shared_task(ignore_result=True, acks_late=True)
def rate_match(match_id):
    services.rate_match(match_id)

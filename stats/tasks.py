"""Thin Celery task (an id in, nothing out): a finished game's figures (recording.py)."""

from celery import shared_task

from . import recording


@shared_task(ignore_result=True, acks_late=True)
def record_game(match_id):
    recording.record_game(match_id)

"""Thin Celery tasks: ids in, nothing out (services do the work)."""

from celery import shared_task

from . import services


@shared_task(acks_late=True, reject_on_worker_lost=True)
def play_lab_chunk(chunk_id: int) -> None:
    services.play_chunk(chunk_id)

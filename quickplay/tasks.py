"""Thin Celery task (nothing in, nothing out): the queues' periodic sweep."""

from celery import shared_task

from . import services


@shared_task(ignore_result=True)
def sweep_queues():
    """Expire the entries whose page went silent; try the waiting ones again (the window
    widened, a bot chosen for after the wait)."""
    services.sweep()

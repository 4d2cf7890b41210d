"""Thin Celery tasks: ids in, nothing out (chunks.play_chunk does the work)."""

from celery import shared_task

from .chunks import play_chunk


@shared_task(acks_late=True, reject_on_worker_lost=True)
def play_lab_chunk(chunk_id: int) -> None:
    play_chunk(chunk_id)


@shared_task(acks_late=False)
def play_long_lab_chunk(chunk_id: int) -> None:
    """A thinking bot's chunk (services._queue_chunks): acknowledged when a worker takes it,
    and claimed when it starts (chunks.play_chunk), so a game longer than the broker's
    visibility timeout is played once. A worker killed mid-game loses that chunk
    (docs/rulings.md)."""
    play_chunk(chunk_id, claim=True)

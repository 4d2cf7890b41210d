"""Thin Celery tasks: ids in, nothing out (chunks.play_chunk does the work)."""

from celery import shared_task

from . import advice_play
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


@shared_task(acks_late=True, reject_on_worker_lost=True)
def play_advice_run(run_id: int) -> None:
    """A deck-advice run's start (decklab.advice_play): its candidates and first round's
    chunks; the run claims itself, so a second delivery does nothing."""
    advice_play.play_advice(run_id)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def play_advice_chunk(chunk_id: int) -> None:
    """A chunk of an advice race (a second of games): stored once, as a lab chunk is;
    queued at the lowest priority (decklab.advice_queue)."""
    advice_play.play_advice_chunk(chunk_id)

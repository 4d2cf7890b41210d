"""Playing one chunk of a lab run and storing its tallies; the run finishes with its last
chunk. The Celery tasks (tasks.py) and the embedded default's thread (services) call
`play_chunk`; it knows nothing of queueing."""

import logging
import os
import socket

from django.db import transaction
from django.utils import timezone

from cards_data import definitions
from decks import play

from . import simulation
from .models import LabChunk, LabRun
from .reference import reference_deck

logger = logging.getLogger(__name__)


def run_colonies(run, opponent: str) -> list[list[dict]]:
    """The two colonies of a run's game against one reference colony, as the engine plays
    them (cards_data.definitions: the same definitions as every online game)."""
    theirs = reference_deck(opponent)["cards"]
    return [definitions.colony(play.expand(run.colony)), definitions.colony(play.expand(theirs))]


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def play_chunk(chunk_id: int, claim: bool = False) -> None:
    """Play one chunk and store its tallies once (a redelivered task finds it done).

    `claim` (a thinking bot's chunk, acknowledged on receipt): the first worker to start it
    writes its name on it, and a second copy of the task finds it taken and returns. A worker
    holds one more task than it plays, and the broker hands that one to another worker once
    it waited past the visibility timeout; without the claim both would play the game."""
    chunk = LabChunk.objects.select_related("run").filter(pk=chunk_id).first()
    if chunk is None or chunk.status != LabChunk.PENDING:
        return
    if claim:
        taken = LabChunk.objects.filter(pk=chunk_id, status=LabChunk.PENDING, worker="")
        if not taken.update(worker=worker_name()):
            return  # another worker plays it
    run = chunk.run
    LabRun.objects.filter(pk=run.pk, status=LabRun.QUEUED).update(status=LabRun.RUNNING)
    try:
        tally = simulation.play_games(
            run_colonies(run, chunk.opponent),
            seed=f"{run.seed}-{chunk.opponent}",
            first=chunk.first,
            games=chunk.games,
            ruleset=play.game_ruleset(run.ruleset, turn_limit=simulation.TURN_LIMIT),
            bot=run.bot,
        )
    except Exception as error:  # an engine bug must not leave the run spinning forever
        logger.exception("lab chunk %s failed", chunk_id)
        _fail(chunk_id, run.pk, f"{type(error).__name__}: {error}")
        return
    _store(chunk_id, run.pk, tally)


def _store(chunk_id, run_id, tally):
    with transaction.atomic():
        chunk = LabChunk.objects.select_for_update().get(pk=chunk_id)
        if chunk.status != LabChunk.PENDING:
            return  # another delivery of the same task stored it first
        for field, value in tally.items():
            setattr(chunk, field, value)
        chunk.status = LabChunk.DONE
        chunk.worker = worker_name()
        chunk.finished = timezone.now()
        chunk.save()
        _finish_if_complete(run_id)


def _fail(chunk_id, run_id, message):
    with transaction.atomic():
        LabChunk.objects.filter(pk=chunk_id, status=LabChunk.PENDING).update(
            status=LabChunk.FAILED, finished=timezone.now()
        )
        LabRun.objects.filter(pk=run_id).exclude(status=LabRun.DONE).update(
            status=LabRun.FAILED, error=message[:2000], finished=timezone.now()
        )


def _finish_if_complete(run_id):
    run = LabRun.objects.select_for_update().get(pk=run_id)
    if run.status in (LabRun.DONE, LabRun.FAILED):
        return
    if not run.chunks.filter(status=LabChunk.PENDING).exists():
        run.status = LabRun.DONE
        run.finished = timezone.now()
        run.save(update_fields=["status", "finished"])

"""Writes of the deck lab: start a run, split into chunks queued for the workers (a chunk is
played and stored by `chunks`, which the tasks call)."""

import logging
import math

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from cards_data import definitions
from decks import play

from . import background, simulation
from .chunks import play_chunk
from .models import LabChunk, LabRun
from .reference import reference_decks
from .selectors import run_codes
from .tasks import play_lab_chunk, play_long_lab_chunk

logger = logging.getLogger(__name__)

MIN_GAMES = 1
MAX_GAMES = 5000
CHUNK_GAMES = 25  # small enough that two workers share even a short run, big enough to be cheap

# Issue 18: the bot that plays a run's games (both sides, docs/rulings.md). The thinking bot
# plays a game in seconds to minutes, so its runs are capped lower, and each of its chunks is
# one game (the progress bar moves per game and both workers stay busy on a short run).
BOTS = simulation.BOTS
DEFAULT_BOT = simulation.DEFAULT_BOT
MAX_GAMES_BY_BOT = {
    "heuristic": 5000,
    "search-easy": 1000,
    "search-normal": 400,
    "search-hard": 200,
}
CHUNK_GAMES_BY_BOT = {
    "heuristic": CHUNK_GAMES,
    "search-easy": 1,
    "search-normal": 1,
    "search-hard": 1,
}

# Seconds of one lab game on one worker, both sides played by the bot (the compiled engine);
# the expected run time shown before a run starts is games x this / the workers that share it.
# heuristic: bench/decklab_bench.py (1,000 games in 8.0 s on 2 workers, bench/RESULTS.md "Deck
# lab"). The thinking bot: `bench/lab_game_cost.py --bot search-<strength> --games 4`, the
# median CPU seconds of a game (bench/RESULTS.md "The search bot", 2026-11-27: easy 1.04,
# normal 1.79, hard 6.67 s; 18-46 turns). Its budget is a number of rollouts, not a time cap,
# so a game costs about the same CPU on a loaded machine; a long game (70+ turns) costs
# about twice these.
SECONDS_PER_GAME = {
    "heuristic": 0.016,
    "search-easy": 1.0,
    "search-normal": 1.8,
    "search-hard": 6.7,
}


def max_games(bot: str) -> int:
    return MAX_GAMES_BY_BOT.get(bot, MAX_GAMES)


def expected_seconds(bot: str, games: int, workers: int | None = None) -> float:
    """The run's expected time: each worker plays its share of the chunks one after another."""
    workers = workers or settings.DECKLAB_WORKERS
    chunk = CHUNK_GAMES_BY_BOT[bot]
    chunks = math.ceil(games / chunk)
    rounds = math.ceil(chunks / max(1, workers))  # chunks each worker plays in turn
    return rounds * min(chunk, games) * SECONDS_PER_GAME[bot]


class LabRefused(Exception):
    """The run cannot start now (409) or for this deck (422); `problems` lists R 9 breaks."""

    def __init__(self, message, *, status=422, code="refused", problems=()):
        super().__init__(message)
        self.message, self.status, self.code, self.problems = message, status, code, problems


def version_number(deck) -> int:
    """The number of the deck's latest version (0 before its first): what a run played."""
    return max((v.number for v in deck.versions.all()), default=0)


def check_deck(deck, colony):
    """The deck must make a playable colony (decks.play, R 9) before any game is queued."""
    try:
        play.colony(colony, deck.ruleset)
    except play.DeckNotPlayable as error:
        if error.code != "DECK_NOT_LEGAL":
            raise LabRefused(
                _("Decks of this ruleset cannot be simulated yet."),
                code="ruleset_not_supported",
                problems=error.problems,
            ) from error
        raise LabRefused(
            _("This deck is not legal, so it cannot be played: fix it in the builder first."),
            code="deck_not_legal",
            problems=error.problems,
        ) from error


STALL_FACTOR = 4  # a run with no chunk done for this many chunk-times has lost its worker
MIN_STALL_SECONDS = 600


def stalled_after(bot: str) -> float:
    """Seconds without a finished chunk after which a run has stopped: a thinking bot's chunk
    is acknowledged when a worker takes it, so a worker killed mid-game takes the game with
    it and nothing would ever finish the run (nor let its owner start another)."""
    chunk = CHUNK_GAMES_BY_BOT.get(bot, CHUNK_GAMES) * SECONDS_PER_GAME.get(bot, 1.0)
    return max(MIN_STALL_SECONDS, STALL_FACTOR * chunk)


def _release_stalled_runs(user) -> None:
    """Mark the owner's runs that made no progress for `stalled_after` failed (their pending
    chunks too, so a late copy of a task returns at once): the owner may start again."""
    now = timezone.now()
    active = LabRun.objects.select_for_update().filter(
        owner=user, status__in=[LabRun.QUEUED, LabRun.RUNNING]
    )
    for run in active:  # locked rows; PostgreSQL locks no aggregate (GROUP BY): asked apart
        last_done = run.chunks.aggregate(last=Max("finished"))["last"]
        last = max(filter(None, [run.created, last_done]))
        if (now - last).total_seconds() < stalled_after(run.bot):
            continue
        logger.warning("lab run %s made no progress since %s: marked failed", run.pk, last)
        run.chunks.filter(status=LabChunk.PENDING).update(status=LabChunk.FAILED)
        run.status, run.finished = LabRun.FAILED, now
        run.error = _("The run stopped: no game finished for a long time (a worker was lost).")
        run.save(update_fields=["status", "finished", "error"])


def _check_no_active_run(user):
    _release_stalled_runs(user)
    if LabRun.objects.filter(owner=user, status__in=[LabRun.QUEUED, LabRun.RUNNING]).exists():
        raise LabRefused(
            _("You already have a lab run in progress: wait until it finishes."),
            status=409,
            code="run_in_progress",
        )


def split_games(games: int, opponents: list[str], chunk: int = CHUNK_GAMES) -> list[tuple]:
    """(opponent, first game, games) chunks: the games spread evenly over the opponents."""
    chunks = []
    for k, opponent in enumerate(opponents):
        share = games // len(opponents) + (k < games % len(opponents))
        for first in range(0, share, chunk):
            chunks.append((opponent, first, min(chunk, share - first)))
    return chunks


def start_run(user, deck, games: int, bot: str = DEFAULT_BOT) -> LabRun:
    if bot not in BOTS:
        raise ValueError(f"bot must be one of {BOTS}")
    if not MIN_GAMES <= games <= max_games(bot):
        raise ValueError(f"games must be between {MIN_GAMES} and {max_games(bot)}")
    colony = play.frozen_entries(deck)
    check_deck(deck, colony)
    with transaction.atomic():
        _check_no_active_run(user)
        run = LabRun.objects.create(
            deck=deck,
            deck_version=version_number(deck),
            owner=user,
            ruleset=deck.ruleset,
            colony=colony,
            games=games,
            bot=bot,
            definitions=definitions.digest_of(run_codes(colony)),
        )
        opponents = [ref["key"] for ref in reference_decks()]
        chunks = split_games(games, opponents, CHUNK_GAMES_BY_BOT[bot])
        LabChunk.objects.bulk_create(
            LabChunk(run=run, index=i, opponent=opponent, first=first, games=n)
            for i, (opponent, first, n) in enumerate(chunks)
        )
        chunk_ids = list(run.chunks.values_list("pk", flat=True))
        transaction.on_commit(lambda: _queue_chunks(chunk_ids, long=bot != "heuristic"))
    return run


def _queue_chunks(chunk_ids, long=False):
    """To the Celery workers; in the embedded default (eager Celery) to a background thread,
    never into the request that started the run (it would hold the POST for the whole run):
    background.dispatch, where deck advice's chunks go too.

    `long`: a thinking bot's chunk (a game of seconds to minutes) goes to the task that is
    acknowledged on receipt: with late acknowledgement the broker would hand a chunk that
    runs past its visibility timeout (60 s) to a second worker while the first still plays it.
    """
    task = play_long_lab_chunk if long else play_lab_chunk
    background.dispatch(task, chunk_ids, local=play_chunk)

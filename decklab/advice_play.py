"""Playing one deck-advice run (issue 39) on the workers that share it.

`play_advice` (the run's first task) proposes the candidates and queues the race's first
round. A round is split into chunks (AdviceChunk: game indices [first, first + games) for
the deck and the candidates still racing, the same seeds for all: common random numbers),
which the workers play side by side as they play a lab run's chunks. `play_advice_chunk`
plays one and adds its paired differences to the run's row; the chunk that ends a round
judges it (decklab.racing) and queues the next round, or, once the race is over, the
re-measurement of the recommended deck on fresh seeds, whose last chunk finishes the run.
The games and the racing rule are decklab.advice and decklab.racing (pure); the tasks
(tasks.py) and the embedded default's thread call the two functions here; the queueing is
advice_queue's.
"""

import logging
import time

from django.db import transaction
from django.utils import timezone

from cards_data import definitions
from decks import play
from decks.models import CollectionEntry
from engine.deck import RULESETS as DECK_RULES

from . import advice, advice_queue, metagame, racing, simulation
from .chunks import worker_name
from .models import AdviceChunk, AdviceRun
from .reference import reference_decks

logger = logging.getLogger(__name__)

# Games of one chunk, every deck's counted: about a second of a worker with the compiled
# engine (bench/RESULTS.md "Deck advice"), so a round of ten candidates is several chunks
# that both workers share, and a cancel or a lab run waits at most that long.
GAMES_PER_CHUNK = 60
BUILT_RUNS = 8  # the runs whose colonies a worker process keeps built (see _games)


class Cancelled(Exception):
    pass


def _owned(run: AdviceRun) -> dict | None:
    if run.source != AdviceRun.COLLECTION:
        return None
    rows = CollectionEntry.objects.filter(owner=run.owner).values_list("card__code", "count")
    return dict(rows)


def _archetype(run: AdviceRun, races: set[str]) -> list:
    """The card lists of the deck's archetype, its swaps' first source: the metagame's
    archetypes of the deck's races (their race pair among the deck's), or, without
    metagame statistics, the reference colonies that share at least two races with it."""
    lists = (run.metagame or {}).get("lists") or ()
    mine = [found["cards"] for found in lists if set(found["races"]) <= races]
    if mine:
        return mine
    return [ref["cards"] for ref in reference_decks() if len(races & set(ref["races"])) >= 2]


def colony_of(entries) -> list[dict]:
    """The definitions a game is played with for [[code, count], ...] (as every game's)."""
    return definitions.colony(play.expand(entries))


def proposals(run: AdviceRun, cards: dict) -> list[advice.Change]:
    races = {cards[code]["race"] for code, _n in run.colony}
    return advice.propose(
        run.colony,
        cards,
        deck_rules=DECK_RULES[run.ruleset],
        owned=_owned(run),
        archetype=_archetype(run, races),
    )


def race_budget(budget: int) -> int:
    """The candidates' share of a run's games: less the re-measurement and the deck's own
    games (one per game index of the longest race)."""
    return budget - 2 * advice.FRESH_GAMES - sum(racing.ROUNDS)


def changes_of(run: AdviceRun) -> list[advice.Change]:
    return [advice.Change(row["out"], row["into"], row["count"]) for row in run.candidates]


# Starting --------------------------------------------------------------------------------


def play_advice(run_id: int) -> None:
    """Propose the candidates and queue the first round (or finish: nothing to propose)."""
    claimed = AdviceRun.objects.filter(pk=run_id, status=AdviceRun.QUEUED)
    if not claimed.update(status=AdviceRun.RUNNING):
        return  # another delivery of the task has it, or it was cancelled while queued
    run = AdviceRun.objects.get(pk=run_id)
    try:
        if run.cancel_requested:  # cancelled while it waited in the queue
            raise Cancelled
        changes = proposals(run, definitions.card_dicts())
        run.candidates = [
            dict(change.as_dict(), verdict=racing.ACTIVE, games=0, splits=[]) for change in changes
        ]
        race = racing.Race(len(changes), race_budget(run.budget), rounds=racing.ROUNDS)
        with transaction.atomic():
            # the row locked and its cancel read anew: a cancel asked meanwhile is neither
            # lost by the save below (it writes every column) nor missed by _next_round
            locked = AdviceRun.objects.select_for_update().filter(pk=run_id)
            run.cancel_requested = locked.values_list("cancel_requested", flat=True).get()
            _next_round(run, race)
            run.save()
    except Cancelled:
        _finish(run, AdviceRun.CANCELLED)
        run.save()
    except Exception as error:  # an engine bug must not leave the run spinning forever
        logger.exception("advice run %s failed", run_id)
        _fail(run_id, error)


def _next_round(run: AdviceRun, race: racing.Race) -> None:
    """After a judged round (run's row locked): queue the next round's chunks, or the
    re-measurement once the race is over, or finish. The caller saves the run."""
    if AdviceRun.objects.filter(pk=run.pk, cancel_requested=True).exists():
        _finish(run, AdviceRun.CANCELLED)
        return
    step = race.next_round()
    if step is not None:
        first, games, who = step
        run.race = {"race": race.as_dict(), "round": {str(c): [0, 0.0, 0.0] for c in who}}
        _queue(run, _split(run, race.played, first, games, who))
        return
    race.finish()
    _show_verdicts(run, race)
    run.race = {"race": race.as_dict()}
    plan = advice.recommended(race, run.colony, changes_of(run))
    if plan is None:
        run.remeasured = None
        _finish(run, AdviceRun.DONE)
        return
    cards, used = plan
    run.race["fresh"] = {
        "cards": cards,
        "changes": [change.as_dict() for change in used],
        "tally": [0, 0.0, 0.0],
    }
    _queue(run, _split(run, race.played, 0, advice.FRESH_GAMES, [0], fresh=True))


def _split(run, round_, first, games, who, fresh=False) -> list[AdviceChunk]:
    """A round's game indices in chunks of about GAMES_PER_CHUNK games (all decks counted)."""
    step = max(1, GAMES_PER_CHUNK // (1 + len(who)))
    return [
        AdviceChunk(
            run=run,
            round=round_,
            fresh=fresh,
            first=start,
            games=min(step, first + games - start),
            who=who,
        )
        for start in range(first, first + games, step)
    ]


def _queue(run: AdviceRun, chunks: list[AdviceChunk]) -> None:
    AdviceChunk.objects.bulk_create(chunks)
    ids = list(
        AdviceChunk.objects.filter(
            run=run, round=chunks[0].round, fresh=chunks[0].fresh, status=AdviceChunk.PENDING
        ).values_list("pk", flat=True)
    )
    transaction.on_commit(lambda: advice_queue.send("play_advice_chunk", ids))


# Playing a chunk -------------------------------------------------------------------------


_built: dict = {}


def _games(run: AdviceRun, fresh: bool) -> advice.Games:
    """The games of a run's chunk. The colonies (definitions from the database) are built
    once per worker process and run, not once per chunk: a race is dozens of chunks."""
    key = (run.pk, run.seed, fresh)
    if key not in _built:
        if len(_built) >= BUILT_RUNS:
            _built.clear()
        if fresh:
            candidates = [colony_of(run.race["fresh"]["cards"])]
        else:
            candidates = [colony_of(change.apply(run.colony)) for change in changes_of(run)]
        opponents = [(ref["key"], colony_of(ref["cards"])) for ref in metagame.gauntlet(run)]
        _built[key] = (colony_of(run.colony), candidates, opponents)
    deck, candidates, opponents = _built[key]
    return advice.Games(
        deck,
        candidates,
        opponents,
        seed=advice.fresh_seed(run.seed) if fresh else run.seed,
        ruleset=play.game_ruleset(run.ruleset, turn_limit=simulation.TURN_LIMIT),
        bot=run.bot,
    )


def play_advice_chunk(chunk_id: int) -> None:
    """Play one chunk and add it to its run once (a redelivered task finds it done)."""
    chunk = AdviceChunk.objects.select_related("run").filter(pk=chunk_id).first()
    if chunk is None or chunk.status != AdviceChunk.PENDING or not chunk.run.active:
        return
    run = chunk.run
    if run.cancel_requested:
        with transaction.atomic():
            run = AdviceRun.objects.select_for_update().get(pk=run.pk)
            if run.active:
                _finish(run, AdviceRun.CANCELLED)
                run.save()
        return
    try:
        started = time.perf_counter()
        games = _games(run, chunk.fresh)
        results = games.play_round(chunk.first, chunk.games, chunk.who)
        seconds = time.perf_counter() - started
        with transaction.atomic():
            _store(chunk_id, games, results, seconds)
    except Exception as error:  # an engine bug must not leave the run spinning forever
        logger.exception("advice chunk %s failed", chunk_id)
        _fail(run.pk, error)


def _store(chunk_id: int, games: advice.Games, results: dict, seconds: float) -> None:
    run = AdviceRun.objects.select_for_update().get(
        pk=AdviceChunk.objects.values("run_id").get(pk=chunk_id)["run_id"]
    )
    chunk = AdviceChunk.objects.select_for_update().get(pk=chunk_id)
    if chunk.status != AdviceChunk.PENDING or not run.active:
        return  # another delivery of the same task stored it first, or the run ended
    chunk.status, chunk.worker, chunk.seconds = AdviceChunk.DONE, worker_name(), seconds
    chunk.finished = timezone.now()
    chunk.save()
    run.games_played += games.games_played
    if chunk.fresh:
        _add(run.race["fresh"]["tally"], results[0])
    else:
        for c, tally in results.items():
            _add(run.race["round"][str(c)], tally)
            _add_splits(run.candidates[c], games.splits[c])
        race = racing.Race.restore(run.race["race"])
        _show_progress(run, race)
    pending = run.chunks.filter(status=AdviceChunk.PENDING, round=chunk.round, fresh=chunk.fresh)
    if not pending.exists():
        _end_round(run, chunk.fresh)
    run.save()


def _end_round(run: AdviceRun, fresh: bool) -> None:
    """The last chunk of a round: judge it and go on, or report the re-measurement."""
    if fresh:
        plan = run.race["fresh"]
        used = [advice.Change(**change) for change in plan["changes"]]
        tally = racing.Tally(*plan["tally"])
        run.remeasured = advice.recommendation(tally, plan["cards"], used)
        _finish(run, AdviceRun.DONE)
        return
    race = racing.Race.restore(run.race["race"])
    race.record({int(c): racing.Tally(*values) for c, values in run.race["round"].items()})
    run.rounds = race.played
    _show_verdicts(run, race)
    _next_round(run, race)


def _add(stored: list, tally: racing.Tally) -> None:
    for k, value in enumerate(tally.as_list()):
        stored[k] += value


def _add_splits(row: dict, cells: dict) -> None:
    """A chunk's games of one candidate, per opponent and side, added to its row."""
    splits = {(s["opponent"], s["on_play"]): s for s in row["splits"]}
    for (key, on_play), cell in cells.items():
        split = splits.get((key, on_play))
        if split is None:
            split = dict(opponent=key, on_play=on_play, games=0, deck=0.0, candidate=0.0)
            split.update(total=0.0, squares=0.0)
            row["splits"].append(split)
        split["games"] += cell.games
        split["deck"] += cell.deck
        split["candidate"] += cell.candidate
        split["total"] += cell.diff.total
        split["squares"] += cell.diff.squares
        diff = racing.Tally(split["games"], split["total"], split["squares"])
        split["change"], split["low"], split["high"] = diff.interval(racing.Z95)


def _show_progress(run: AdviceRun, race: racing.Race) -> None:
    """Each row's games and interval so far: the race's tally plus the round in hand."""
    for row in run.candidates:
        so_far = racing.Tally()
        for split in row["splits"]:
            so_far.merge(racing.Tally(split["games"], split["total"], split["squares"]))
        row["games"] = so_far.games
        row["change"], row["low"], row["high"] = so_far.interval(race.z)


def _show_verdicts(run: AdviceRun, race: racing.Race) -> None:
    _show_progress(run, race)
    for row, verdict in zip(run.candidates, race.verdicts, strict=True):
        row["verdict"] = verdict


def _finish(run: AdviceRun, status: str) -> None:
    """The caller saves the run."""
    run.status, run.finished = status, timezone.now()


def _fail(run_id: int, error: Exception) -> None:
    AdviceRun.objects.filter(pk=run_id, status__in=[AdviceRun.QUEUED, AdviceRun.RUNNING]).update(
        status=AdviceRun.FAILED,
        error=f"{type(error).__name__}: {error}"[:2000],
        finished=timezone.now(),
    )

"""Playing one deck-advice run (issue 39), the task's body: propose the candidates, race
them against the deck (decklab.racing) in the lab's games (decklab.advice), re-measure the
winners on fresh seeds, and store the progress on the run's row after every few games. The
Celery task (tasks.py) and the embedded default's thread (advising) call `play_advice`; it
knows nothing of queueing."""

import logging

from django.utils import timezone

from cards_data import definitions
from decks import play
from decks.models import CollectionEntry
from engine.deck import RULESETS as DECK_RULES

from . import advice, racing, simulation
from .models import AdviceRun
from .reference import reference_decks

logger = logging.getLogger(__name__)

CANCEL_CHECK_GAMES = 10  # game indices played between two looks at the cancel flag


class Cancelled(Exception):
    pass


def _owned(run: AdviceRun) -> dict | None:
    if run.source != AdviceRun.COLLECTION:
        return None
    rows = CollectionEntry.objects.filter(owner=run.owner).values_list("card__code", "count")
    return dict(rows)


def _archetype(races: set[str]) -> list:
    """The card lists of the reference colonies that share at least two races with the deck:
    the archetype's decks until the site keeps metagame statistics."""
    return [ref["cards"] for ref in reference_decks() if len(races & set(ref["races"])) >= 2]


def colony_of(entries) -> list[dict]:
    """The definitions a game is played with for [[code, count], ...] (as every game's)."""
    return definitions.colony(play.expand(entries))


def _games(run: AdviceRun, changes) -> advice.Games:
    opponents = [(ref["key"], colony_of(ref["cards"])) for ref in reference_decks()]
    return advice.Games(
        colony_of(run.colony),
        [colony_of(change.apply(run.colony)) for change in changes],
        opponents,
        seed=run.seed,
        ruleset=play.game_ruleset(run.ruleset, turn_limit=simulation.TURN_LIMIT),
        bot=run.bot,
    )


def proposals(run: AdviceRun, cards: dict) -> list[advice.Change]:
    races = {cards[code]["race"] for code, _n in run.colony}
    return advice.propose(
        run.colony,
        cards,
        deck_rules=DECK_RULES[run.ruleset],
        owned=_owned(run),
        archetype=_archetype(races),
    )


def race_budget(budget: int) -> int:
    """The candidates' share of a run's games: less the re-measurement and the deck's own
    games (one per game index of the longest race)."""
    return budget - 2 * advice.FRESH_GAMES - sum(racing.ROUNDS)


def play_advice(run_id: int) -> None:
    """Propose, race and re-measure; the run's row holds the progress after every round."""
    claimed = AdviceRun.objects.filter(pk=run_id, status=AdviceRun.QUEUED)
    if not claimed.update(status=AdviceRun.RUNNING):
        return  # another delivery of the task has it, or it was cancelled while queued
    run = AdviceRun.objects.get(pk=run_id)
    try:
        _play(run)
    except Cancelled:
        _finish(run, AdviceRun.CANCELLED)
    except Exception as error:  # an engine bug must not leave the run spinning forever
        logger.exception("advice run %s failed", run_id)
        run.error = f"{type(error).__name__}: {error}"[:2000]
        _finish(run, AdviceRun.FAILED)


def _play(run: AdviceRun) -> None:
    _stop_if_cancelled(run)  # cancelled while it waited in the queue
    cards = definitions.card_dicts()
    changes = proposals(run, cards)
    games = _games(run, changes)
    run.candidates = [dict(change.as_dict(), verdict=racing.ACTIVE) for change in changes]
    run.save(update_fields=["candidates"])

    def progress(race):
        _stop_if_cancelled(run)
        run.rounds = race.played
        _progress(run, games, race, changes)

    race = advice.race(
        games, race_budget(run.budget), step=CANCEL_CHECK_GAMES, on_progress=progress
    )
    _progress(run, games, race, changes)
    _stop_if_cancelled(run)
    run.remeasured = advice.recommend(games, race, run.colony, changes, colony_of)
    run.games_played = games.games_played
    _finish(run, AdviceRun.DONE)


def _stop_if_cancelled(run: AdviceRun) -> None:
    if AdviceRun.objects.filter(pk=run.pk, cancel_requested=True).exists():
        raise Cancelled


def candidate_rows(games: advice.Games, race: racing.Race, changes) -> list[dict]:
    rows = []
    for i, change in enumerate(changes):
        so_far = racing.Tally()  # the race's tally plus the games of the round in hand
        for cell in games.splits[i].values():
            so_far.merge(cell.diff)
        mean, low, high = so_far.interval(race.z)
        splits = [
            {
                "opponent": key,
                "on_play": on_play,
                "games": cell.games,
                "deck": cell.deck,
                "candidate": cell.candidate,
                "change": cell.diff.mean,
                "low": cell.diff.interval(racing.Z95)[1],
                "high": cell.diff.interval(racing.Z95)[2],
            }
            for (key, on_play), cell in games.splits[i].items()
        ]
        rows.append(
            dict(
                change.as_dict(),
                verdict=race.verdicts[i],
                games=so_far.games,
                change=mean,
                low=low,
                high=high,
                splits=splits,
            )
        )
    return rows


def _progress(run, games, race, changes) -> None:
    run.candidates = candidate_rows(games, race, changes)
    run.games_played = games.games_played
    run.save(update_fields=["candidates", "games_played", "rounds", "progressed"])


def _finish(run: AdviceRun, status: str) -> None:
    run.status, run.finished = status, timezone.now()
    run.save(update_fields=["status", "finished", "error", "remeasured", "games_played"])

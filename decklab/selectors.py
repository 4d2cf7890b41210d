"""Reads of the deck lab: a run's progress and its win rates with 95 % Wilson intervals."""

from django.db.models import Count, Q, Sum

from cardgame import bots
from cardgame.language import current_language
from cards_data.definitions import card_dicts, digest
from decks.selectors import visible_decks
from engine.catalog import RACES
from engine.simulate import wilson

from .models import LabChunk, LabRun
from .reference import reference_decks

TALLIES = ("play_games", "play_wins", "draw_games", "draw_wins", "unfinished", "turns", "games")


def visible_runs(user):
    """Runs of decks this user may see (a private deck's runs are as private as the deck)."""
    return LabRun.objects.select_related("deck", "owner").filter(deck__in=visible_decks(user))


def rate(wins: int, games: int) -> dict:
    """Win rate and its 95 % Wilson interval, in per cent (None when nothing finished)."""
    p, low, high = wilson(wins, games)
    if games == 0:
        return {"wins": 0, "games": 0, "rate": None, "low": None, "high": None}
    return {
        "wins": wins,
        "games": games,
        "rate": round(100 * p, 1),
        "low": round(100 * low, 1),
        "high": round(100 * high, 1),
    }


def _sums(chunks) -> dict:
    totals = chunks.aggregate(**{name: Sum(name) for name in TALLIES})
    return {name: totals[name] or 0 for name in TALLIES}


def _line(label: str, t: dict, **extra) -> dict:
    finished = t["play_games"] + t["draw_games"]
    return {
        "label": label,
        **rate(t["play_wins"] + t["draw_wins"], finished),
        "played": t["games"],
        "unfinished": t["unfinished"],
        **extra,
    }


def opponent_label(ref: dict, lang: str) -> str:
    races = ", ".join(RACES[r][lang] for r in ref["races"])
    return f"{ref['name_hu'] if lang == 'hu' else ref['name_en']} ({races})"


def run_codes(colony) -> set[str]:
    """Every card code a run's games use: the deck's and the whole gauntlet's."""
    codes = {code for code, _n in colony}
    for ref in reference_decks():
        codes |= {code for code, _n in ref["cards"]}
    return codes


def out_of_date(run: LabRun, current: dict | None = None) -> bool:
    """Whether the run's games were played with other card definitions than today's.
    `current`: code -> today's definition, read once for several runs (else read here)."""
    codes = run_codes(run.colony)
    if current is None:
        current = card_dicts(codes)
    return run.definitions != digest(current[c] for c in codes if c in current)


def marked_out_of_date(runs) -> list[LabRun]:
    """The runs, each with `out_of_date` set (for a list of runs on a page): today's
    definitions of all their cards read in one query."""
    runs = list(runs)
    current = card_dicts(set().union(*(run_codes(run.colony) for run in runs)))
    for run in runs:
        run.out_of_date = out_of_date(run, current)
    return runs


def run_results(run: LabRun) -> dict:
    """Everything the run page and its JSON endpoint show."""
    lang = current_language()
    done = run.chunks.filter(status=LabChunk.DONE)
    counts = run.chunks.aggregate(
        chunks=Count("pk"),
        chunks_done=Count("pk", filter=Q(status=LabChunk.DONE)),
        workers=Count("worker", distinct=True, filter=Q(status=LabChunk.DONE)),
    )
    total = _sums(done)
    opponents = []
    for ref in reference_decks():
        t = _sums(done.filter(opponent=ref["key"]))
        split = {
            "on_play": rate(t["play_wins"], t["play_games"]),
            "on_draw": rate(t["draw_wins"], t["draw_games"]),
        }
        opponents.append(_line(opponent_label(ref, lang), t, key=ref["key"], **split))
    on_play = rate(total["play_wins"], total["play_games"])
    on_draw = rate(total["draw_wins"], total["draw_games"])
    return {
        "id": run.pk,
        "deck": {"id": run.deck_id, "name": run.deck.name, "version": run.deck_version},
        "status": run.status,
        "bot": run.bot,  # who played both sides (issue 18): heuristic or search-<strength>
        "bot_label": bots.label(run.bot),
        "error": run.error,
        # Played with other card definitions than today's (a card's numbers changed, or
        # the run is from before the printed bonuses reached the games): run it again.
        "out_of_date": out_of_date(run),
        "games": run.games,
        "done": total["games"],
        "percent": round(100 * total["games"] / run.games, 1) if run.games else 100.0,
        "chunks": counts["chunks"],
        "chunks_done": counts["chunks_done"],
        "workers": counts["workers"],
        "overall": _line("overall", total),
        "on_play": on_play,
        "on_draw": on_draw,
        "opponents": opponents,
        "turns_per_game": round(total["turns"] / total["games"], 1) if total["games"] else None,
        "created": run.created.isoformat(),
        "finished": run.finished.isoformat() if run.finished else None,
        "seconds": (run.finished - run.created).total_seconds() if run.finished else None,
    }

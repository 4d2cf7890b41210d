"""Reads of deck advice (issue 39): a run's progress and its proposals with their evidence,
in the request's language (card and opponent names, signed points with the locale's
decimal comma)."""

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cardgame.language import current_language
from cards_data.definitions import card_dicts
from decks.selectors import visible_decks

from . import racing
from .metagame import gauntlet
from .models import AdviceRun
from .selectors import opponent_label

VERDICTS = {
    racing.BETTER: gettext_lazy("Better than the deck"),
    racing.WORSE: gettext_lazy("Worse: stopped early"),
    racing.SAME: gettext_lazy("No gain worth making"),
    racing.ACTIVE: gettext_lazy("Still playing"),
    racing.UNDECIDED: gettext_lazy("Undecided: the game budget ran out"),
}
ORDER = [racing.BETTER, racing.ACTIVE, racing.UNDECIDED, racing.SAME, racing.WORSE]


def visible_advice(user):
    """Advice runs of decks this user may see (as private as the deck)."""
    return AdviceRun.objects.select_related("deck", "owner").filter(deck__in=visible_decks(user))


def points(share: float) -> str:
    """A win-rate change in points, signed, in the locale's number format: "+4,5"."""
    value = round(100 * share, 1)
    text = formats.number_format(abs(value), 1, use_l10n=True)
    return ("+" if value > 0 else "−" if value < 0 else "±") + text


def count(n: int) -> str:
    """A number of games as people read it: "40,000" in English, "40 000" in Hungarian."""
    return formats.number_format(n, force_grouping=True)


def _name(code: str, cards: dict, lang: str) -> str:
    card = cards.get(code, {})
    return (card.get("name_en") if lang == "en" else None) or card.get("name") or code


def change_text(change: dict, cards: dict, lang: str) -> str:
    """ "−3 Training Camp, +3 Coordination Centre" (names in the request's language)."""
    out, into = _name(change["out"], cards, lang), _name(change["into"], cards, lang)
    return f"−{change['count']} {out}, +{change['count']} {into}"


def _interval(row: dict) -> dict:
    return {
        "change": points(row["change"]),
        "low": points(row["low"]),
        "high": points(row["high"]),
        "sign": "up" if row["low"] > 0 else "down" if row["high"] < 0 else "even",
    }


def _split(split: dict, opponents: dict, lang: str) -> dict:
    games = split["games"]
    return {
        "opponent": opponent_label(opponents[split["opponent"]], lang),
        "side": _("On the play") if split["on_play"] else _("On the draw"),
        "games": games,
        "deck": round(100 * split["deck"] / games) if games else None,
        "candidate": round(100 * split["candidate"] / games) if games else None,
        **_interval(split),
    }


def _gauntlet_order(opponents: dict):
    """The splits' order: the gauntlet's, on the play before on the draw."""
    keys = list(opponents)
    return lambda split: (keys.index(split["opponent"]), not split["on_play"])


def _candidate(row: dict, cards: dict, opponents: dict, lang: str) -> dict:
    return {
        "text": change_text(row, cards, lang),
        "verdict": row["verdict"],
        "verdict_label": VERDICTS[row["verdict"]],
        "games": row.get("games", 0),
        "splits": [
            _split(s, opponents, lang)
            for s in sorted(row.get("splits", ()), key=_gauntlet_order(opponents))
        ],
        **(_interval(row) if row.get("games") else {}),
    }


def _remeasured(found: dict | None, cards: dict, lang: str) -> dict | None:
    if not found:
        return None
    return {
        "changes": [change_text(c, cards, lang) for c in found["changes"]],
        "games": count(found["games"]),
        "holds": found["holds"],
        **_interval(found),
    }


def advice_results(run: AdviceRun) -> dict:
    """Everything the advice page shows, proposals in order: better (largest gain first),
    still playing, undecided, no difference, worse."""
    lang = current_language()
    rows = sorted(
        run.candidates or [], key=lambda r: (ORDER.index(r["verdict"]), -r.get("change", 0))
    )
    codes = {row[k] for row in rows for k in ("out", "into")}
    codes |= {code for code, _n in (run.remeasured or {}).get("cards", ())}
    cards = card_dicts(codes)
    opponents = {ref["key"]: ref for ref in gauntlet(run)}
    candidates = [_candidate(row, cards, opponents, lang) for row in rows]
    return {
        "id": run.pk,
        "status": run.status,
        "status_label": run.get_status_display(),
        "active": run.active,
        "games_played": run.games_played,
        "budget": run.budget,
        "played_text": count(run.games_played),
        "budget_text": count(run.budget),
        "rounds": run.rounds,
        "candidates": candidates,
        "remeasured": _remeasured(run.remeasured, cards, lang),
        "applied_version": run.applied_version,
    }


def evidence_comment(run: AdviceRun) -> str:
    """The comment of the deck version an applied advice makes: its changes and the gain
    re-measured on fresh games, with its interval (in the request's language)."""
    found = advice_results(run)["remeasured"] or {}
    return _(
        "Deck advice #%(n)d: %(changes)s; %(change)s points (95%%: %(low)s to %(high)s) "
        "in %(games)s fresh games"
    ) % {
        "n": run.pk,
        "changes": "; ".join(found.get("changes", ())),
        "change": found.get("change", ""),
        "low": found.get("low", ""),
        "high": found.get("high", ""),
        "games": found.get("games", ""),
    }


def _api_interval(row: dict) -> dict:
    return {k: round(row[k], 4) for k in ("change", "low", "high")}


def _api_split(split: dict) -> dict:
    games = split["games"]
    return {
        "opponent": split["opponent"],
        "on_play": split["on_play"],
        "games": games,
        "deck_score": round(split["deck"] / games, 4) if games else None,
        "candidate_score": round(split["candidate"] / games, 4) if games else None,
        **_api_interval(split),
    }


def advice_data(run: AdviceRun) -> dict:
    """A run as the JSON API gives it: numbers as numbers (win-rate changes as shares,
    -1 to 1, with their intervals), card codes with their names in the request's language,
    the evidence per opponent (reference colony key) and side."""
    lang = current_language()
    rows = run.candidates or []
    found = run.remeasured
    codes = {row[k] for row in rows for k in ("out", "into")}
    codes |= {c[k] for c in (found or {}).get("changes", ()) for k in ("out", "into")}
    cards = card_dicts(codes)
    order = _gauntlet_order({ref["key"]: ref for ref in gauntlet(run)})
    return {
        "id": run.pk,
        "deck": run.deck_id,
        "deck_version": run.deck_version,
        "status": run.status,
        "source": run.source,
        "budget": run.budget,
        "games_played": run.games_played,
        "rounds": run.rounds,
        "cancel_requested": run.cancel_requested,
        "candidates": [
            {
                "out": row["out"],
                "into": row["into"],
                "count": row["count"],
                "text": change_text(row, cards, lang),
                "verdict": row["verdict"],
                "verdict_label": str(VERDICTS[row["verdict"]]),
                "games": row.get("games", 0),
                **(_api_interval(row) if row.get("games") else {}),
                "splits": [_api_split(s) for s in sorted(row["splits"], key=order)],
            }
            for row in rows
        ],
        "remeasured": None
        if not found
        else {
            "changes": [dict(c, text=change_text(c, cards, lang)) for c in found["changes"]],
            "cards": found["cards"],
            "games": found["games"],
            "holds": found["holds"],
            **_api_interval(found),
        },
        "applied_version": run.applied_version,
        "error": run.error if run.status == AdviceRun.FAILED else "",
    }

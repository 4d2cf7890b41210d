"""What the site says about a pairing's warnings: the one home of those sentences.

`swiss.pair_round` (pure, no Django) gives each warning a code and its data, the players
by id (`swiss.WARNINGS`: {"code": "REMATCH", "table": 3, "players": [12, 40]}), and a
round stores them so. This module says one as a gettext sentence in the active language,
naming the players, never showing their ids. Every page and every API response that shows a
round's warnings uses `round_warnings`, so a warning always travels as
{"code": ..., **data, "message": ...}: the code for machines, the sentence for people.
"""

from collections.abc import Callable, Iterable

from django.utils.translation import gettext as _

from cardgame.hungarian import articles
from tournaments import swiss


def _table_pair(w: dict, name: Callable) -> dict:
    a, b = w["players"]
    return {"table": w["table"], "a": name(a), "b": name(b)}


def _rematch(w: dict, name: Callable) -> str:
    return _(
        "Rematch at table %(table)s: %(a)s and %(b)s have played each other before; "
        "every possible pairing has a rematch."
    ) % _table_pair(w, name)


def _forbidden_pair(w: dict, name: Callable) -> str:
    return _(
        "Forbidden pair at table %(table)s: %(a)s and %(b)s. No pairing avoids it; pair the "
        "round again by hand if needed."
    ) % _table_pair(w, name)


def _second_bye(w: dict, name: Callable) -> str:
    return _("%(player)s gets a second bye: every active player has had one already.") % {
        "player": name(w["player"])
    }


def _bye_above(w: dict, name: Callable) -> str:
    return _(
        "The bye goes to %(player)s: %(lower)s, ranked lower, could not take it without "
        "a rematch or a forbidden pair."
    ) % {"player": name(w["player"]), "lower": name(w["lower"])}


def _not_proven(w: dict, name: Callable) -> str:
    return _(
        "This pairing is not proven to be the best one: the pairing by score groups was "
        "kept (it has no rematch that another pairing could avoid)."
    )


MESSAGES = {
    swiss.REMATCH: _rematch,
    swiss.FORBIDDEN_PAIR: _forbidden_pair,
    swiss.SECOND_BYE: _second_bye,
    swiss.BYE_ABOVE: _bye_above,
    swiss.NOT_PROVEN: _not_proven,
}


def warning_message(warning: dict, names: dict) -> str:
    """A person's sentence for one warning; `names`: player id -> the name people know."""

    def name(player_id) -> str:
        return names.get(player_id) or _("an unknown player")

    sentence = MESSAGES.get(warning.get("code"))
    try:
        return articles(sentence(warning, name)) if sentence else _("A pairing warning.")
    except (KeyError, TypeError, ValueError):  # data of another shape: still a sentence
        return _("A pairing warning.")


def describe(warnings: Iterable, names: dict) -> list[dict]:
    """Warnings as the site shows them: code + data + the sentence ("message"). A round
    paired before the codes stored its English sentence: it is shown as it was."""
    out = []
    for w in warnings:
        if isinstance(w, str):
            out.append({"code": "TEXT", "message": w})
        else:
            out.append({**w, "message": warning_message(w, names)})
    return out


def _player_ids(warnings: Iterable) -> set:
    ids = set()
    for w in warnings:
        if isinstance(w, dict):
            ids.update(w.get("players") or ())
            ids.update(w[key] for key in ("player", "lower") if key in w)
    return ids


def round_warnings(rnd) -> list[dict]:
    """A round's warnings (`describe`), its players named as the standings name them."""
    ids = _player_ids(rnd.warnings)
    names = dict(
        rnd.tournament.registrations.filter(pk__in=ids).values_list("pk", "player__username")
    )
    return describe(rnd.warnings, names)

"""What the site says about a colony's R 9 problems: the one home of those sentences.

`engine.deck.check_deck` gives each problem a code and its data (R 9.7); this module turns
one into a sentence through gettext, in the active language. Every page and every API
response that lists problems uses `describe`, so a problem always travels as
`{"code": ..., "message": ..., **data}`: the code for machines, the sentence for people.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cardgame.hungarian import articles
from cardgame.language import current_language, is_english
from engine import catalog


def race_name(race: str) -> str:
    """A race's name in the active language (catalog.RACES holds both)."""
    names = catalog.RACES.get(race)
    if not names:
        return race
    return names[current_language()]


def card_name(p: dict) -> str:
    """A problem's card in the active language. The engine's problems carry the printed
    (Hungarian) name, by which copies are counted (R 21.3); `describe` puts the English
    one beside it for the sentence (issue 34: an English page named the over-limit card in
    Hungarian)."""
    if is_english():
        return p.get("_name_en") or p["name"]
    return p["name"]


def _deck_size(p: dict) -> str:
    return ngettext(
        "The colony has %(count)d card; it must have exactly %(required)d.",
        "The colony has %(count)d cards; it must have exactly %(required)d.",
        p["count"],
    ) % {"count": p["count"], "required": p["required"]}


def _copy_limit(p: dict) -> str:
    return _(
        "%(count)d copies of “%(name)s”: at most %(max)d cards of the same name are allowed."
    ) % {"count": p["count"], "name": card_name(p), "max": p["max"]}


def _opposing_races(p: dict) -> str:
    a, b = p["pair"]
    return _("%(a)s and %(b)s are opposing races: a colony cannot contain both.") % {
        "a": race_name(a),
        "b": race_name(b),
    }


def _too_many_races(p: dict) -> str:
    return _("The colony has %(n)d races (%(races)s); this variant allows at most %(max)d.") % {
        "n": len(p["races"]),
        "races": ", ".join(map(race_name, p["races"])),
        "max": p["max"],
    }


def _simplified_combat_card(p: dict) -> str:
    return _(
        "“%(name)s” refers to speed or return fire, so it cannot be used with the simplified "
        "combat system."
    ) % {"name": card_name(p)}


def _unknown_card(p: dict) -> str:
    return ngettext(
        "Unknown card “%(card)s” (%(count)d copy).",
        "Unknown card “%(card)s” (%(count)d copies).",
        p["count"],
    ) % {"card": p["card"], "count": p["count"]}


def _ruleset_not_playable(p: dict) -> str:
    return articles(_("The ruleset “%(ruleset)s” cannot be played.") % {"ruleset": p["ruleset"]})


MESSAGES = {
    "DECK_SIZE": _deck_size,
    "COPY_LIMIT": _copy_limit,
    "OPPOSING_RACES": _opposing_races,
    "TOO_MANY_RACES": _too_many_races,
    "SIMPLIFIED_COMBAT_CARD": _simplified_combat_card,
    "UNKNOWN_CARD": _unknown_card,
    "UNKNOWN_RULESET": _ruleset_not_playable,
    "RULESET_NOT_PLAYABLE": _ruleset_not_playable,
}


def problem_message(problem: dict) -> str:
    """A person's sentence for one problem ({"code": ..., **data}) in the active language."""
    sentence = MESSAGES.get(problem.get("code"))
    try:
        return sentence(problem) if sentence else _("This colony breaks a deck-building rule.")
    except (KeyError, TypeError, ValueError):  # data of an older shape: still a sentence
        return _("This colony breaks a deck-building rule.")


def describe(problems, english: dict | None = None) -> list[dict]:
    """Problems as the site sends them: code + data + the sentence ("message").
    `english`: Hungarian card name -> English name, for the sentences of an English page
    (the data keeps the engine's name)."""
    english = english or {}
    out = []
    for p in problems:
        name_en = english.get(p.get("name"))
        words = {**p, "_name_en": name_en} if name_en else p
        out.append({**p, "message": problem_message(words)})
    return out

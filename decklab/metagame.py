"""The metagame's archetypes for deck advice (issue 39): its gauntlet, and the card lists its
swaps are tried from first, once the site's statistics have found archetypes.

decklab sits below stats in the layering (docs/architecture.md) and never imports it: the
wiring on top names the function that gives the archetypes, `settings.DECKLAB_ARCHETYPES`
("stats.selectors.archetypes"), and this module calls it. An archetype is read through
what that function's rows carry: `id`, `races`, `name` (in the active language), `names`
({"hu": ..., "en": ...}: a run keeps both, from one read), `typical` ((code, copies, name,
share of its lists), ...) and `lists`. With no archetypes (no
setting, no statistics yet, or none whose typical list makes a legal colony) deck advice
plays the reference colonies (decklab.reference), as before.

A run freezes what it found when it starts (AdviceRun.metagame): its opponents do not
change under it when the statistics are refreshed, and both languages' names are kept.
"""

import logging

from django.conf import settings
from django.utils import translation
from django.utils.module_loading import import_string

from engine.deck import DECK_SIZE, check_deck

from .reference import reference_decks

logger = logging.getLogger(__name__)

GAUNTLET_SIZE = 4  # the most played archetypes that make a legal colony


def archetype_rows() -> list:
    """The archetypes of the function the settings name, most played first ([] without)."""
    path = getattr(settings, "DECKLAB_ARCHETYPES", "")
    if not path:
        return []
    try:
        rows = list(import_string(path)())
    except Exception:  # the statistics are an extra: advice goes on with the reference colonies
        logger.exception("deck advice: the archetypes of %r could not be read", path)
        return []
    return sorted(rows, key=lambda row: -row.lists)


def typical_colony(typical, cards: dict, deck_rules) -> list[list] | None:
    """A legal 45-card colony from an archetype's typical list (its most shared cards
    first, their usual copies, cut at 45), or None when it makes none (R 9)."""
    entries, size = [], 0
    for code, copies, *_rest in sorted(typical, key=lambda row: -row[-1]):
        if code not in cards or size >= DECK_SIZE:
            continue
        n = min(copies, DECK_SIZE - size)
        entries.append([code, n])
        size += n
    if size != DECK_SIZE:
        return None
    if check_deck([(cards[code], n) for code, n in entries], deck_rules):
        return None
    return sorted(entries)


def gauntlet(run) -> list[dict]:
    """An advice run's opponents: the archetypes it froze when it started, or the
    reference colonies (each {"key", "name_en", "name_hu", "races", "cards"})."""
    return (run.metagame or {}).get("gauntlet") or list(reference_decks())


def snapshot(cards: dict, deck_rules) -> dict:
    """What a run freezes when it starts: {"gauntlet": [reference-colony-shaped dicts of
    the most played archetypes], "lists": [{"races", "cards"}, ...] of every archetype};
    {} when the metagame has no archetype that makes a legal colony."""
    with translation.override("hu"):
        rows = archetype_rows()  # once: each row names itself in both languages
    lists, gauntlet = [], []
    for row in rows:
        colony = typical_colony(row.typical, cards, deck_rules)
        if colony is None:
            continue
        lists.append({"races": list(row.races), "cards": colony})
        if len(gauntlet) < GAUNTLET_SIZE:
            names = getattr(row, "names", None) or {}
            gauntlet.append(
                {
                    "key": f"archetype-{row.id}",
                    "name_hu": names.get("hu", row.name),
                    "name_en": names.get("en", row.name),
                    "races": list(row.races),
                    "cards": colony,
                }
            )
    return {"gauntlet": gauntlet, "lists": lists} if gauntlet else {}

"""The one home of "card -> engine definition" (DESIGN.md, data flow 1).

Every game the site sets up (online 1v1 and multiplayer, tournament games, the deck lab,
`simulate_tournament`, and so the bots' searches and the replays, which read the state's
own copy) is played with the definitions `card_dicts` returns. They are the set file's
card entries as written, less the words meant only for people, stored whole by the loader
in `Card.definition`. Nothing is rebuilt from the catalogue's columns: a column built for
search and display once dropped the printed stat bonuses (`bonus`) and turned upgrade
limits into text, and every online game lost them (issue 34).

`tests/cards_data/test_definitions.py` compares these definitions with the set files for
every card, key by key, and plays games with definitions that record every key the engine
reads, so a key the engine starts to read that this home leaves out fails at once.
"""

import hashlib
import json
from collections.abc import Iterable

from .models import Card

# Set-file keys that are words for people, never rules: flavour text and the set's own
# design notes. The engine never reads them (the recording test above checks it).
FOR_PEOPLE_ONLY = frozenset({"flavor_hu", "flavor_en", "notes"})
# Keys the loader adds while reading a set file: the file's edition and name.
LOADER_KEYS = frozenset({"edition", "_file"})


def definition(set_card: dict) -> dict:
    """The engine definition of one card entry of a set file: every key the engine may
    read, with its value and type as written (numbers stay numbers, "X" stays "X")."""
    return {
        key: value
        for key, value in set_card.items()
        if key not in FOR_PEOPLE_ONLY and key not in LOADER_KEYS
    }


def card_dicts(codes: Iterable[str] | None = None) -> dict[str, dict]:
    """code -> engine definition, for the given codes (or the whole catalogue); each a
    fresh dict, decoded from the row, that the caller may keep."""
    cards = Card.objects.all()
    if codes is not None:
        cards = cards.filter(code__in=list(codes))
    return dict(cards.values_list("code", "definition"))


def card_dicts_of(cards: Iterable[Card]) -> dict[str, dict]:
    """code -> engine definition of Card rows the caller has loaded already: the same
    `definition` column `card_dicts` reads, without a second query for it."""
    return {card.code: card.definition for card in cards}


class UnknownCards(ValueError):
    """Codes that name no card of the catalogue."""

    def __init__(self, codes: list[str]):
        super().__init__(", ".join(codes))
        self.codes = codes


def colony(codes: list[str]) -> list[dict]:
    """The definitions a game is set up with for a colony of card codes: one per copy, in
    the colony's order (copies of a name share one dict: the engine only reads them).
    UnknownCards, naming every unknown code, when a code is not in the catalogue."""
    known = card_dicts(set(codes))
    missing = sorted(set(codes) - set(known))
    if missing:
        raise UnknownCards(missing)
    return [known[code] for code in codes]


def digest(defs: Iterable[dict]) -> str:
    """A short fingerprint of a set of definitions (order-free): a result computed with
    them (a deck-lab run) is out of date once the catalogue's definitions differ."""
    text = json.dumps(sorted(defs, key=lambda d: d["code"]), sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def digest_of(codes: Iterable[str]) -> str:
    """The fingerprint of the catalogue's current definitions of these codes."""
    return digest(card_dicts(set(codes)).values())

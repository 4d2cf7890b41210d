"""Colony (deck) legality, R 9: the one place that decides it.

`check_deck` is pure: it takes card definitions (dicts shaped like the set files)
with counts, and returns every problem at once (R 9.7), each with a code and the
data needed to explain it. The decks and tournaments apps call it; nothing else
decides legality.
"""

import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.catalog import RACE_PAIRS

DECK_SIZE = 45  # R 9.1
MAX_COPIES_PER_NAME = 3  # R 9.2
MAX_RACES = 4  # R 9.3 (implied), R 9.5.2
RACE_RULES = ("original", "max4", "free")  # R 9.5


@dataclass(frozen=True)
class Ruleset:
    """Deck-building options of R 9.5; tournaments always use the default (R 9.6)."""

    race_rule: str = "original"
    simplified_combat: bool = False

    def __post_init__(self):
        if self.race_rule not in RACE_RULES:
            raise ValueError(f"race_rule must be one of {', '.join(RACE_RULES)}")


TOURNAMENT = Ruleset()
RULESETS = {
    "original": TOURNAMENT,
    "max4": Ruleset(race_rule="max4"),
    "free": Ruleset(race_rule="free"),
    "simplified": Ruleset(simplified_combat=True),
}


@dataclass(frozen=True)
class DeckProblem:
    code: str
    data: dict = field(default_factory=dict)


def name_key(name: str) -> str:
    """R 21.3: copies are compared by exact name after Unicode NFC normalisation."""
    return unicodedata.normalize("NFC", name)


def mentions_speed_or_return_fire(card: dict) -> bool:
    """AMB-45: banned under simplified combat (R 9.5.4, 17.2.3)."""
    if "rapid_fire" in card.get("keywords", ()):
        return True
    return _mentions(card.get("abilities", ()), ("speed", "return_fire"))


def _mentions(value, words) -> bool:
    if isinstance(value, str):
        return value in words
    if isinstance(value, dict):
        return any(_mentions(k, words) or _mentions(v, words) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_mentions(v, words) for v in value)
    return False


def check_deck(
    cards: Iterable[tuple[dict | str, int]], ruleset: Ruleset | str = TOURNAMENT
) -> list[DeckProblem]:
    """Every R 9 violation of a colony given as (card, count) pairs.

    A card is a dict with at least `name` and `race` (and `code`, `keywords`,
    `abilities` where known); a plain string stands for a reference that could not
    be resolved to a card and is reported as UNKNOWN_CARD.
    """
    if isinstance(ruleset, str):
        ruleset = RULESETS[ruleset]
    entries = list(cards)
    known = [(card, count) for card, count in entries if isinstance(card, dict)]
    problems = [
        DeckProblem("UNKNOWN_CARD", {"card": card, "count": count})
        for card, count in entries
        if not isinstance(card, dict)
    ]
    problems += _size_problems(entries)
    problems += _copy_problems(known)
    problems += _race_problems(known, ruleset)
    if ruleset.simplified_combat:
        problems += [
            DeckProblem("SIMPLIFIED_COMBAT_CARD", {"name": card["name"], "card": card.get("code")})
            for card, _ in known
            if mentions_speed_or_return_fire(card)
        ]
    return problems


def _size_problems(entries) -> list[DeckProblem]:
    total = sum(count for _, count in entries)
    if total != DECK_SIZE:  # R 9.1
        return [DeckProblem("DECK_SIZE", {"count": total, "required": DECK_SIZE})]
    return []


def _copy_problems(known) -> list[DeckProblem]:
    copies: Counter[str] = Counter()
    for card, count in known:
        copies[name_key(card["name"])] += count  # R 9.2, AMB-41: by name across printings
    return [
        DeckProblem("COPY_LIMIT", {"name": name, "count": count, "max": MAX_COPIES_PER_NAME})
        for name, count in sorted(copies.items())
        if count > MAX_COPIES_PER_NAME
    ]


def _race_problems(known, ruleset: Ruleset) -> list[DeckProblem]:
    # AMB-31: raceless cards are unrestricted and never count as a race.
    races = {card.get("race") for card, count in known if card.get("race") and count > 0}
    if ruleset.race_rule == "original":  # R 9.3
        return [
            DeckProblem("OPPOSING_RACES", {"pair": [a, b]})
            for a, b in RACE_PAIRS
            if a in races and b in races
        ]
    if ruleset.race_rule == "max4" and len(races) > MAX_RACES:  # R 9.5.2
        return [DeckProblem("TOO_MANY_RACES", {"races": sorted(races), "max": MAX_RACES})]
    return []  # R 9.5.3: free

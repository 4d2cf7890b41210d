"""From a saved deck to a game: the one home for which rulesets exist, which of them can be
played, and turning a deck (live, a frozen version, or a frozen list) into a colony.

Matches, the deck lab, tournaments and the builder call this module; it raises one error
type, `DeckNotPlayable`, carrying every problem (R 9.7) as `decks.problems.describe` gives
them. Legality itself stays `engine.deck.check_deck`'s answer (R 9).
"""

from collections.abc import Iterable

from cards_data.definitions import card_dicts
from engine.deck import RULESETS as DECK_RULES
from engine.deck import check_deck
from engine.ruleset import Ruleset as GameRuleset

from .models import RULESET_CHOICES, Deck, DeckVersion
from .problems import describe

RULESETS = tuple(DECK_RULES)  # every ruleset a deck can be built for (R 9.5)
RULESET_LABELS = dict(RULESET_CHOICES)
RACE_RULES = {name: DECK_RULES[name].race_rule for name in RULESETS}  # R 9.5


class DeckNotPlayable(Exception):
    """A deck cannot become a game under a ruleset; `problems` lists every reason."""

    def __init__(self, problems: list[dict], *, code: str = "DECK_NOT_LEGAL"):
        self.code = code
        self.problems = describe(problems)
        super().__init__(" ".join(p["message"] for p in self.problems))


def game_ruleset(name: str, **flags) -> GameRuleset:
    """The engine's game ruleset for a ruleset name, plus flags such as `turn_limit`."""
    if name not in DECK_RULES:
        raise DeckNotPlayable(
            [{"code": "UNKNOWN_RULESET", "ruleset": name}], code="UNKNOWN_RULESET"
        )
    deck_rules = DECK_RULES[name]
    base = {"race_rule": deck_rules.race_rule, "simplified_combat": deck_rules.simplified_combat}
    try:
        return GameRuleset.from_dict({**base, **flags})
    except (ValueError, TypeError) as error:
        problem = {"code": "RULESET_NOT_PLAYABLE", "ruleset": name}
        raise DeckNotPlayable([problem], code="RULESET_NOT_PLAYABLE") from error


def is_playable(name: str) -> bool:
    """Whether the engine can play this ruleset (it refuses variants it does not implement)."""
    try:
        game_ruleset(name)
    except DeckNotPlayable:
        return False
    return True


PLAYABLE_RULESETS = tuple(name for name in RULESETS if is_playable(name))


def ruleset_choices(*, playable_only: bool = False) -> list[tuple[str, str]]:
    """(name, label) pairs in the rulebook's order, for forms and menus."""
    names = PLAYABLE_RULESETS if playable_only else RULESETS
    return [(name, RULESET_LABELS[name]) for name in names]


def entries_of(source) -> list[tuple[str, int]]:
    """(code, count) pairs of a live deck, a frozen version, or a frozen [[code, count]] list."""
    if isinstance(source, Deck):
        return sorted((e.card.code, e.count) for e in source.entries.select_related("card"))
    if isinstance(source, DeckVersion):
        return [(code, count) for code, count in source.cards]
    return [(code, count) for code, count in source]


def frozen_entries(source) -> list[list]:
    """The deck's [[code, count], ...] as a version, a lab run or a registration freezes
    them (JSON lists, sorted by code)."""
    return [list(entry) for entry in entries_of(source)]


def problems(source, ruleset: str, known: dict | None = None) -> list[dict]:
    """Every R 9 problem of the deck under the ruleset, described (code + data + message)."""
    entries = entries_of(source)
    if known is None:
        known = card_dicts(code for code, _count in entries)
    pairs = [(known.get(code, code), count) for code, count in entries]
    english = {d["name"]: d.get("name_en") or d["name"] for d, _n in pairs if isinstance(d, dict)}
    found = check_deck(pairs, DECK_RULES[ruleset])
    return describe(({"code": p.code, **p.data} for p in found), english)


def expand(entries: Iterable) -> list[str]:
    """A colony's card codes, one per copy, in the entries' order."""
    return [code for code, count in entries for _copy in range(count)]


def colony(source, ruleset: str) -> list[str]:
    """The deck as a playable colony of card codes; DeckNotPlayable with every problem."""
    game_ruleset(ruleset)
    entries = entries_of(source)
    found = problems(entries, ruleset)
    if found:
        raise DeckNotPlayable(found)
    return expand(entries)

"""Which card a user meant: codes and names in either language, and suggestions."""

import difflib
import re
from collections.abc import Iterable

from cards_data.search.normalize import fold

from .common import SUGGESTION_CUTOFF, SUGGESTIONS

# --------------------------------------------------------------------------- card index


def _loose_key(text: str) -> str:
    """`Mamut I` ~ `Mamut I.`, `Queens Barge` ~ `Queen's Barge`: folding without punctuation."""
    folded = re.sub(r"['\u2019\u02bc`\u00b4]", "", fold(text))  # apostrophes join
    return " ".join(re.sub(r"[\W_]+", " ", folded).split())


class CardIndex:
    """Resolves what a user wrote to a card: a code (`kg1-214`), a Hungarian name or
    an English name, accent-, case- and whitespace-insensitively (`fold`).

    Exact folded matches are tried in that order (a Hungarian name beats another
    card's equal English name); then, if unambiguous, the same without punctuation.
    When several printings share a name (R 9.2 counts them as one card), the name
    resolves to the first one given; codes always pick the exact printing.
    """

    def __init__(self, cards: Iterable[dict]):
        self.cards: list[dict] = list(cards)
        self._by_code: dict[str, dict] = {}
        self._by_name: dict[str, dict] = {}
        self._display: dict[str, str] = {}  # folded name -> name as printed, in its language
        loose: dict[str, dict] = {}
        loose_names: dict[str, set[str]] = {}
        for card in self.cards:
            key = fold(card["code"])
            if key in self._by_code:
                raise ValueError(f"duplicate card code {card['code']!r}")
            self._by_code[key] = card
        for name_field in ("name", "name_en"):  # Hungarian first
            for card in self.cards:
                name = card.get(name_field)
                if not name:
                    continue
                key = fold(name)
                self._by_name.setdefault(key, card)
                self._display.setdefault(key, name)
                lkey = _loose_key(name)
                loose.setdefault(lkey, card)
                loose_names.setdefault(lkey, set()).add(fold(card["name"]))
        self._loose = {k: card for k, card in loose.items() if len(loose_names[k]) == 1}
        self._choices = list(self._display)
        self._suggestions: dict[str, tuple[str, ...]] = {}

    def __len__(self) -> int:
        return len(self.cards)

    def get(self, code: str) -> dict | None:
        """The card with this code (case-insensitive), or None."""
        return self._by_code.get(fold(code))

    def resolve(self, reference: str) -> dict | None:
        """The card a code or name refers to, or None."""
        key = fold(reference)
        if not key:
            return None
        card = self._by_code.get(key) or self._by_name.get(key)
        if card is None:
            card = self._loose.get(_loose_key(reference))
        return card

    def suggest(self, reference: str, n: int = SUGGESTIONS, cutoff: float = SUGGESTION_CUTOFF):
        """The `n` names closest to `reference` (difflib on folded names), each shown in
        the language it matched."""
        key = fold(reference)
        cache_key = f"{n}|{cutoff}|{key}"
        if cache_key not in self._suggestions:
            close = difflib.get_close_matches(key, self._choices, n=n, cutoff=cutoff)
            self._suggestions[cache_key] = tuple(self._display[k] for k in close)
        return self._suggestions[cache_key]

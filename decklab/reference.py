"""The gauntlet: a small set of legal reference colonies that together cover every race.

The colonies are stored as data (reference_decks.json, card codes only) so a run's
opponents do not change when the builder heuristics do; `manage.py decklab_reference`
regenerates the file from the card set with the engine's colony builder and checks
every colony with engine.deck.check_deck (R 9).
"""

import json
from functools import cache
from pathlib import Path

from engine.colonies import build_colony
from engine.deck import check_deck

DATA_FILE = Path(__file__).resolve().parent / "reference_decks.json"

# One race of each opposing pair (R 9.3) per colony; the four colonies cover all eight races.
# laci and dani are the race choices of R 20 EX-1.
GAUNTLET = [
    ("vanguard", "Vanguard", "Élcsapat", ["human", "insectoid", "cerebrite", "triciplite"]),
    ("swarm", "Swarm", "Raj", ["xeno", "carnoplantus", "zarg", "space_shark"]),
    ("laci", "Laci's colony", "Laci kolóniája", ["xeno", "insectoid", "zarg", "space_shark"]),
    (
        "dani",
        "Dani's colony",
        "Dani kolóniája",
        ["human", "carnoplantus", "cerebrite", "space_shark"],
    ),
]


def build_reference_decks(cards: list[dict]) -> list[dict]:
    """The gauntlet's colonies built from card dicts; raises if one breaks a rule of R 9."""
    decks = []
    for key, name_en, name_hu, races in GAUNTLET:
        colony = build_colony(cards, races)
        counts = {}
        for card in colony:
            counts.setdefault(card["code"], [card, 0])[1] += 1
        problems = check_deck([(card, n) for card, n in counts.values()])
        if problems:
            raise ValueError(f"reference colony {key} is not legal: {[p.code for p in problems]}")
        decks.append(
            {
                "key": key,
                "name_en": name_en,
                "name_hu": name_hu,
                "races": races,
                "cards": sorted([code, n] for code, (_card, n) in counts.items()),
            }
        )
    return decks


@cache
def reference_decks() -> tuple[dict, ...]:
    return tuple(json.loads(DATA_FILE.read_text(encoding="utf-8"))["decks"])


def reference_deck(key: str) -> dict:
    for deck in reference_decks():
        if deck["key"] == key:
            return deck
    raise KeyError(key)

"""The card set's files and colonies built from them, for the tools: engine.simulate and
engine.soak play them, engine.search samples an opponent's unseen cards from the set, the
deck lab builds its reference decks with ``build_colony``. The only engine module besides
engine.simulate's command line that reads files (the rules modules do no I/O)."""

import json
from pathlib import Path

from .catalog import RACE_PAIRS
from .rng import Rng

SET_DIR = Path(__file__).resolve().parent.parent / "cards_data" / "sets" / "first"
PRESETS = {
    "laci": ["xeno", "insectoid", "zarg", "space_shark"],  # R 20 EX-1
    "dani": ["human", "carnoplantus", "cerebrite", "space_shark"],
}
SHAPE = {"ship": 6, "armament": 2, "crew": 2, "base": 2, "event": 2, "interrupt": 1}


def load_cards(directory=SET_DIR) -> list:
    cards = []
    for path in sorted(Path(directory).glob("*.json")):
        cards += json.loads(path.read_text(encoding="utf-8"))["cards"]
    return cards


def build_colony(cards, races) -> list:
    """A legal 45-card colony (15 names x 3) from the races, spread over types and costs."""
    pool = [c for c in cards if c["race"] in races]
    chosen = []
    for ctype, n in SHAPE.items():
        of_type = sorted(
            (c for c in pool if c["type"] == ctype),
            key=lambda c: (
                c["credit_cost"] if isinstance(c["credit_cost"], int) else 99,
                c["code"],
            ),
        )
        if not of_type:
            continue
        step = len(of_type) / n
        picks = {of_type[min(len(of_type) - 1, int(i * step))]["code"]: None for i in range(n)}
        chosen += [c for c in of_type if c["code"] in picks]
    rest = [c for c in sorted(pool, key=lambda c: c["code"]) if c not in chosen]
    chosen += rest[: 15 - len(chosen)]
    return [c for c in chosen[:15] for _ in range(3)]


def random_colony(rng: Rng, cards: list, races: list | None = None, ships: int = 6) -> list:
    """A legal 45-card colony: 15 names x 3 copies, `ships` of them ship names, from `races`
    (by default one race of each opposing pair, R 9.5)."""
    if races is None:
        races = [pair[rng.below(2)] for pair in RACE_PAIRS]
    pool = [c for c in cards if c["race"] in races]
    ship_pool = [c for c in pool if c["type"] == "ship"]
    other_pool = [c for c in pool if c["type"] != "ship"]
    rng.shuffle(ship_pool)
    rng.shuffle(other_pool)
    return [c for c in ship_pool[:ships] + other_pool[: 15 - ships] for _ in range(3)]

"""Run by tests/cards_data/test_definitions.py in a process of its own, on the pure-Python
engine (the compiled one reads a dict's keys in C, past a subclass's methods): plays games
from the card definitions in the JSON file named by argv[1] and prints, as JSON, the keys
the engine asked each card's definition for, found or not."""

import json
import random
import sys
from collections import defaultdict

from engine.catalog import RACE_PAIRS
from engine.game import apply, legal_actions, new_game, pending
from engine.view import view

READS: dict[str, set] = defaultdict(set)


class Recording(dict):
    def __getitem__(self, key):
        READS[dict.get(self, "code")].add(key)
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        READS[dict.get(self, "code")].add(key)
        return dict.get(self, key, default)

    def __contains__(self, key):
        READS[dict.get(self, "code")].add(key)
        return dict.__contains__(self, key)


def random_colony(rng: random.Random, cards: dict) -> list:
    """A legal colony (R 9): one race of each pair, 6 ship names and 9 others, 3 copies."""
    races = [rng.choice(pair) for pair in RACE_PAIRS]
    pool = sorted((d for d in cards.values() if d["race"] in races), key=lambda d: d["code"])
    ships = [d for d in pool if d["type"] == "ship"]
    others = [d for d in pool if d["type"] != "ship"]
    rng.shuffle(ships)
    rng.shuffle(others)
    return [d for d in ships[:6] + others[:9] for _copy in range(3)]


def main(path: str, games: int) -> None:
    import engine.game

    assert engine.game.__file__.endswith(".py"), "run with KGK_ENGINE_PURE=1"
    with open(path, encoding="utf-8") as f:
        cards = {code: Recording(d) for code, d in json.load(f).items()}
    rng = random.Random(34)
    for game in range(games):
        state = new_game([random_colony(rng, cards), random_colony(rng, cards)], f"keys-{game}")
        for step in range(4000):
            if pending(state) is None:
                break
            actions = legal_actions(state)
            apply(state, actions[rng.randrange(len(actions))])
            if step % 50 == 0:
                view(state, step % 2)
    print(json.dumps({code: sorted(keys) for code, keys in READS.items()}))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))

"""Are two balance runs the same games? (issue 34: the site's definitions against the set
files'.) Compares the raw files of bench/engine_balance.py (`--raw`, or the parts of one run)
game by game: per colony pair, the (winner, starting player, turns) of its games.

    git show 55d69fe:docs/balance-search-hard.json > /tmp/before.json
    .venv/bin/python bench/balance_same_games.py /tmp/before.json docs/balance-search-hard.json
"""

import json
import sys
from pathlib import Path


def games_by_pair(path: str) -> dict:
    out: dict = {}
    for game in json.loads(Path(path).read_text())["games"]:
        out.setdefault(tuple(game["decks"]), []).append(
            (game["winner"], game["start"], game["turns"])
        )
    return {pair: sorted(games, key=repr) for pair, games in out.items()}  # winner may be None


def main(before: str, after: str) -> int:
    a, b = games_by_pair(before), games_by_pair(after)
    games = sum(len(g) for g in a.values())
    differ = {pair: (a[pair], b.get(pair)) for pair in a if a[pair] != b.get(pair)}
    same = games - sum(len(old) for old, _new in differ.values())
    print(f"{same} of {games} games the same; colony pairs that differ: {len(differ)}")
    for pair, (old, new) in sorted(differ.items()):
        print(f"  colonies {pair}: {old} -> {new}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))

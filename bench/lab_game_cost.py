"""Deck lab: the cost of one lab game per bot (issue 18), the figures behind the expected run
time the lab's page shows before a run starts (decklab.services.SECONDS_PER_GAME).

    .venv/bin/python bench/lab_game_cost.py --bot search-easy --games 4

Plays `--games` games of the bench deck (the gauntlet's "laci" colony, as
bench/decklab_bench.py) against the gauntlet in turn, the chosen bot on both sides (as a lab
run does, decklab.simulation.play_one), and prints each game's CPU seconds (process_time) and
wall seconds, then the medians. No database, no Celery: one worker's view of a game.

The search bot stops a decision at its iteration budget or its time cap (engine.search
STRENGTHS), whichever comes first; the cap is wall time, so on a loaded machine a capped
decision uses less CPU and the same wall time. Read the wall median as the time of a game on
a worker with a core of its own, when the caps bind (normal, hard), and the CPU median when
the iteration budget binds (easy).
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from decklab import simulation  # noqa: E402
from decklab.reference import reference_decks  # noqa: E402
from decks.play import expand as colony_codes  # noqa: E402
from engine.colonies import load_cards  # noqa: E402
from engine.ruleset import Ruleset  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bot", default="heuristic", choices=simulation.BOTS)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", default="cost")
    args = parser.parse_args()
    by_code = {card["code"]: card for card in load_cards()}
    refs = reference_decks()
    lab = [by_code[c] for c in colony_codes(next(r for r in refs if r["key"] == "laci")["cards"])]
    ruleset = Ruleset.from_dict({"turn_limit": simulation.TURN_LIMIT})
    cpu, wall = [], []
    for i in range(args.games):
        ref = refs[i % len(refs)]
        theirs = [by_code[c] for c in colony_codes(ref["cards"])]
        c0, w0 = time.process_time(), time.perf_counter()
        winner, turns, name = simulation.play_one(
            [lab, theirs], f"{args.seed}-{i}", simulation.starts(i), ruleset, args.bot
        )
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
        print(json.dumps({"bot": name, "opponent": ref["key"], "game": i, "turns": turns,
                          "winner": winner, "cpu": round(cpu[-1], 2), "wall": round(wall[-1], 2)}),
              flush=True)  # fmt: skip
    print(f"{args.bot}: {args.games} games, median CPU {statistics.median(cpu):.2f} s, "
          f"median wall {statistics.median(wall):.2f} s per game")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())

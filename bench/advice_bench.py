"""Deck advice (issue 39): one race of the planted-weakness deck's candidates against the
gauntlet with the heuristic bot, in this process (no database: the games of decklab.advice,
the racing rule of decklab.racing), and the games racing saved.

    .venv/bin/python bench/advice_bench.py [--candidates 10] [--budget 6000] [--seed bench]

The deck is the Vanguard reference colony with three cards swapped for weak ones (the same
plant as tests/decklab/test_advice.py). Prints each candidate's verdict, games and interval,
the wall time, the games played (the deck's, the candidates', the fresh re-measurement),
and the candidate games a fixed design needs for the same decisions (every candidate as many
games as the longest-raced one: racing.fixed_games).
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from decklab import advice, racing, simulation  # noqa: E402
from decklab.reference import reference_decks  # noqa: E402
from engine.colonies import load_cards  # noqa: E402
from engine.deck import RULESETS  # noqa: E402
from engine.ruleset import Ruleset  # noqa: E402

PLANTED = [("KG1-018", "KG1-019"), ("KG1-075", "KG1-136"), ("KG1-002", "KG1-126")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=10)
    parser.add_argument("--budget", type=int, default=6000, help="the candidates' games")
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    cards = {c["code"]: c for c in load_cards()}

    def colony(entries):
        return [cards[code] for code, n in entries for _copy in range(n)]

    entries = [list(e) for e in reference_decks()[0]["cards"]]
    for out, into in PLANTED:
        entries = advice.Change(out, into, 3).apply(entries)
    archetype = [ref["cards"] for ref in reference_decks()]
    changes = advice.propose(
        entries,
        cards,
        deck_rules=RULESETS["original"],
        archetype=archetype,
        limit=args.candidates,
    )
    opponents = [(ref["key"], colony(ref["cards"])) for ref in reference_decks()]
    games = advice.Games(
        colony(entries),
        [colony(change.apply(entries)) for change in changes],
        opponents,
        seed=args.seed,
        ruleset=Ruleset(turn_limit=simulation.TURN_LIMIT),
    )
    started = time.perf_counter()
    state = advice.race(games, args.budget)
    raced = time.perf_counter() - started
    found = advice.recommend(games, state, entries, changes, colony)
    total = time.perf_counter() - started
    weak = {into for _out, into in PLANTED}
    for i, change in enumerate(changes):
        mean, low, high = state.interval(i)
        mark = "planted" if change.out in weak else ""
        print(
            f"{change.out}->{change.into} x{change.count} {state.verdicts[i]:9} "
            f"{state.tallies[i].games:5} games {100 * mean:+6.1f} "
            f"[{100 * low:+6.1f}, {100 * high:+6.1f}] {mark}"
        )
    fixed = racing.fixed_games(state)
    print(f"rounds {state.played}, candidate games {state.spent}, deck games "
          f"{len(games.deck_scores)}, all games {games.games_played}")  # fmt: skip
    print(f"fixed design for the same decisions: {fixed} candidate games; racing saved "
          f"{100 * (1 - state.spent / fixed):.0f} %")  # fmt: skip
    print(f"race {raced:.1f} s, with the re-measurement {total:.1f} s, "
          f"{games.games_played / total:.1f} games/s in one process")  # fmt: skip
    if found:
        fixed_weak = sorted({c["out"] for c in found["changes"]} & weak)
        print(f"recommended {found['changes']}; planted found: {fixed_weak}")
        print(f"re-measured on {found['games']} fresh games: {100 * found['change']:+.1f} "
              f"[{100 * found['low']:+.1f}, {100 * found['high']:+.1f}] holds={found['holds']}")  # fmt: skip


if __name__ == "__main__":
    main()

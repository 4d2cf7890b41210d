"""Play many games between two colonies with chosen bots (``python -m engine.simulate``).

    python -m engine.simulate --games 10000 --bots random random
    python -m engine.simulate --deck1 races:human,insectoid,cerebrite,triciplite \\
        --deck2 my_colony.txt --bots heuristic random --seed 7
    python -m engine.simulate --seats 4 --games 1000 --bots heuristic random

Prints win rates with 95 % (Wilson) confidence intervals, the starting
player's advantage, turns and decisions per game and games per second; a
progress bar goes to stderr. This command-line entry point is the engine's
only module that reads files (the card set and deck lists); the rules modules
do no I/O.

With ``--seats 3..6`` it plays multiplayer tables (R 17.1): each game seats random legal
colonies (one race of each pair, R 9.5) with the bots given (repeated round the table)
and reports the win rate per seat, per position in the turn order (1 = the starting
player) and per race (a colony's win counts for each of its four races).

A deck is ``laci`` / ``dani`` (the race choices of R 20 EX-1), ``races:a,b,c,d``
(a colony built from those races) or a text file of ``N card name`` lines.
"""

import argparse
import json
import math
import sys
import time
from pathlib import Path

from .bots import BOTS, make_bot
from .catalog import RACE_PAIRS
from .collector import collector_paused
from .colonies import PRESETS, SET_DIR, build_colony, load_cards, random_colony
from .game import apply, new_game, pending
from .rng import Rng
from .ruleset import Ruleset


def read_deck(spec: str, cards) -> list:
    if spec in PRESETS:
        return build_colony(cards, PRESETS[spec])
    if spec.startswith("races:"):
        return build_colony(cards, spec[6:].split(","))
    by_name = {c["name"]: c for c in cards} | {c["code"]: c for c in cards}
    colony = []
    for line in Path(spec).read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        count, _, name = line.partition(" ")
        colony += [by_name[name.strip()]] * int(count)
    return colony


def wilson(wins: int, n: int, z: float = 1.96):
    """95 % Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (p, max(0.0, centre - half), min(1.0, centre + half))


def play_game(colonies, seed, bots, ruleset) -> dict:
    state = new_game(colonies, seed, ruleset)
    with collector_paused():
        while (p := pending(state)) is not None:
            apply(state, bots[p.player].choose(state, p.player))
    return {
        "winner": state.winner,
        "start": state.starting_player,
        "turns": state.turn,
        "decisions": state.decisions,
        "result": state.result,
    }


def progress(done, total, started, out=sys.stderr):
    width = 30
    filled = int(width * done / total) if total else width
    rate = done / max(1e-9, time.perf_counter() - started)
    out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {rate:.1f} games/s")
    out.flush()


def simulate(colonies, games, seed, bot_names, ruleset, show_progress=True) -> dict:
    results = []
    started = time.perf_counter()
    for i in range(games):
        bots = [make_bot(bot_names[0], f"{seed}-{i}-0"), make_bot(bot_names[1], f"{seed}-{i}-1")]
        results.append(play_game(colonies, f"{seed}-{i}", bots, ruleset))
        if show_progress and (i % 10 == 9 or i == games - 1):
            progress(i + 1, games, started)
    if show_progress:
        sys.stderr.write("\n")
    elapsed = time.perf_counter() - started
    finished = [r for r in results if r["winner"] is not None]
    n = len(finished)
    return {
        "games": games,
        "finished": n,
        "unfinished": games - n,
        "deck1": wilson(sum(r["winner"] == 0 for r in finished), n),
        "deck2": wilson(sum(r["winner"] == 1 for r in finished), n),
        "starting_player": wilson(sum(r["winner"] == r["start"] for r in finished), n),
        "turns": sum(r["turns"] for r in results) / max(1, games),
        "decisions": sum(r["decisions"] for r in results) / max(1, games),
        "seconds": elapsed,
        "games_per_second": games / elapsed if elapsed else 0.0,
        "decisions_per_second": sum(r["decisions"] for r in results) / elapsed if elapsed else 0.0,
    }


def simulate_table(
    cards, seats: int, games: int, seed, bot_names, ruleset=None, show_progress=False
) -> dict:
    """Multiplayer tables (R 17.1): win rates per seat, per turn-order position, per race."""
    ruleset = ruleset or Ruleset(turn_limit=300)
    names = [bot_names[s % len(bot_names)] for s in range(seats)]
    by_seat = [{"seat": s, "bot": names[s], "wins": 0} for s in range(seats)]
    by_position = [0] * seats  # wins of the player who played 1st, 2nd, ... (R 17.1.1)
    races: dict = {}
    finished = turns = decisions = 0
    started = time.perf_counter()
    for i in range(games):
        rng = Rng.from_seed(f"table-{seed}-{i}")
        colonies = [random_colony(rng, cards) for _ in range(seats)]
        bots = [make_bot(names[s], f"{seed}-{i}-{s}") for s in range(seats)]
        state = new_game(colonies, f"{seed}-{i}", ruleset)
        with collector_paused():
            while (p := pending(state)) is not None:
                apply(state, bots[p.player].choose(state, p.player))
        turns += state.turn
        decisions += state.decisions
        colony_races = [sorted({c["race"] for c in colony}) for colony in colonies]
        for s in range(seats):
            for race in colony_races[s]:
                row = races.setdefault(race, {"seats": 0, "wins": 0})
                row["seats"] += 1
                row["wins"] += state.winner == s
        if state.winner is not None:
            finished += 1
            by_seat[state.winner]["wins"] += 1
            by_position[(state.winner - state.starting_player) % seats] += 1
        if show_progress and (i % 10 == 9 or i == games - 1):
            progress(i + 1, games, started)
    if show_progress:
        sys.stderr.write("\n")
    for row in by_seat:
        row["rate"] = wilson(row["wins"], finished)
    for row in races.values():
        row["rate"] = wilson(row["wins"], row["seats"])
    assert {r for pair in RACE_PAIRS for r in pair} >= set(races)
    elapsed = time.perf_counter() - started
    return {
        "seats": seats,
        "games": games,
        "finished": finished,
        "unfinished": games - finished,
        "by_seat": by_seat,
        "by_position": [
            {"position": k + 1, "wins": w, "rate": wilson(w, finished)}
            for k, w in enumerate(by_position)
        ],
        "by_race": dict(sorted(races.items())),
        "turns": turns / max(1, games),
        "decisions": decisions / max(1, games),
        "seconds": elapsed,
    }


def table_report(summary) -> str:
    def pct(t):
        return f"{100 * t[0]:5.1f} %  (95 % CI {100 * t[1]:.1f}-{100 * t[2]:.1f})"

    lines = [
        f"tables of {summary['seats']}  {summary['games']} games "
        f"({summary['unfinished']} stopped by the turn limit)",
    ]
    for row in summary["by_seat"]:
        lines.append(f"seat {row['seat']} ({row['bot']:<9}) wins {pct(row['rate'])}")
    for row in summary["by_position"]:
        lines.append(f"plays {row['position']}.          wins {pct(row['rate'])}")
    for race, row in summary["by_race"].items():
        lines.append(f"race {race:<14} wins {pct(row['rate'])}  ({row['seats']} colonies)")
    lines.append(f"turns / game     {summary['turns']:.1f}")
    lines.append(f"decisions / game {summary['decisions']:.1f}")
    return "\n".join(lines)


def report(summary, names) -> str:
    def pct(t):
        return f"{100 * t[0]:5.1f} %  (95 % CI {100 * t[1]:.1f}-{100 * t[2]:.1f})"

    lines = [
        f"games            {summary['games']} ({summary['unfinished']} stopped by the turn limit)",
        f"deck 1 wins      {pct(summary['deck1'])}   {names[0]}",
        f"deck 2 wins      {pct(summary['deck2'])}   {names[1]}",
        f"starting player  {pct(summary['starting_player'])}",
        f"turns / game     {summary['turns']:.1f}",
        f"decisions / game {summary['decisions']:.1f}",
        f"games / s        {summary['games_per_second']:.2f}   ({summary['seconds']:.1f} s)",
        f"decisions / s    {summary['decisions_per_second']:.0f}",
    ]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.simulate", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--deck1", default="laci")
    parser.add_argument("--deck2", default="dani")
    parser.add_argument("--bots", nargs="+", default=["random", "random"], choices=sorted(BOTS))
    parser.add_argument("--seats", type=int, default=2, help="3-6: multiplayer tables (R 17.1)")
    parser.add_argument("--turn-limit", type=int, default=300)
    parser.add_argument("--sets", default=str(SET_DIR))
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    cards = load_cards(args.sets)
    if args.seats > 2:
        summary = simulate_table(
            cards,
            args.seats,
            args.games,
            args.seed,
            args.bots,
            Ruleset(turn_limit=args.turn_limit),
            not args.quiet,
        )
        print(json.dumps(summary) if args.json else table_report(summary))
        return 0
    if len(args.bots) != 2:
        parser.error("--bots: two bots for a two-player game")
    colonies = [read_deck(args.deck1, cards), read_deck(args.deck2, cards)]
    ruleset = Ruleset(turn_limit=args.turn_limit)
    summary = simulate(colonies, args.games, args.seed, args.bots, ruleset, not args.quiet)
    names = [f"{args.deck1} ({args.bots[0]})", f"{args.deck2} ({args.bots[1]})"]
    print(json.dumps(summary) if args.json else report(summary, names))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Strength gauntlet of the search bot (issue 18): search-<strength> against the random and
the heuristic bot, over every legal four-race colony in both seats.

    .venv/bin/python bench/bot_strength.py --seed 1 --rounds 1 \\
        --strengths easy normal hard --opponents random heuristic [--games N] [--json out.json]

One round is 32 games per (strength, opponent): each of the 16 legal four-race colonies
(one race of each pair, R 9.5, built by `engine.simulate.build_colony`) plays once in seat 0
and once in seat 1 against a colony drawn by the seeded generator (the starting player is
the die roll of R 10.2). `--games N` stops after the first N games of the schedule (for a
quick look; the schedule then covers fewer colonies). Games stop at turn 300 like the
simulator. Reports the win rate with a 95 % Wilson interval overall, per seat and per race
(the games whose bot colony holds the race), and the distribution of the search bot's
seconds per decision, wall and CPU (`time.process_time`, steadier on a shared machine; only
decisions with a choice: a single legal action is not searched). `--turn-limit` (default
300) ends a stalled game unfinished (a loss for the search bot). `--clock cpu` (the default)
gives the bot's time budget in CPU seconds of this process (`time.process_time`): the
strength of "hard" deciding in at most a second on one core, whatever else the machine
runs; `--clock wall` is the bot as it is built (`time.perf_counter`).
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.bots import make_bot  # noqa: E402
from engine.catalog import RACE_PAIRS  # noqa: E402
from engine.colonies import build_colony, load_cards  # noqa: E402
from engine.game import apply, legal_actions, new_game, pending  # noqa: E402
from engine.rng import Rng  # noqa: E402
from engine.ruleset import Ruleset  # noqa: E402
from engine.simulate import wilson  # noqa: E402

COMBOS = [list(c) for c in itertools.product(*RACE_PAIRS)]  # the 16 legal race sets


def schedule(seed, rounds):
    rng = Rng.from_seed(f"bot-strength:{seed}")
    games = []
    for r in range(rounds):
        for seat in (0, 1):
            for k, races in enumerate(COMBOS):
                other = COMBOS[rng.below(len(COMBOS))]
                games.append({"round": r, "seat": seat, "races": races, "other": other, "k": k})
    return games


def percentile(sorted_values, q):
    if not sorted_values:
        return None
    i = min(len(sorted_values) - 1, int(q * len(sorted_values)))
    return sorted_values[i]


def play(cards, game, strength, opponent, seed, index, turn_limit=300, clock="cpu", settings=None):
    me = game["seat"]
    colonies = [None, None]
    colonies[me] = build_colony(cards, game["races"])
    colonies[1 - me] = build_colony(cards, game["other"])
    bots = [None, None]
    bots[me] = make_bot(f"search-{strength}", f"{seed}-{index}-bot")
    if settings:  # a variant of the strength (--settings), for tuning
        bots[me].settings.update(settings)
    if clock == "cpu":  # the time budget in CPU seconds of this process: "on one core"
        bots[me].clock = time.process_time
    bots[1 - me] = make_bot(opponent, f"{seed}-{index}-opp")
    state = new_game(colonies, f"strength-{seed}-{index}", Ruleset(turn_limit=turn_limit))
    times = []
    cpu = []
    while (p := pending(state)) is not None:
        if p.player == me and len(legal_actions(state)) > 1:
            started, cpu_started = time.perf_counter(), time.process_time()
            action = bots[me].choose(state, me)
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
        else:
            action = bots[p.player].choose(state, p.player)
        apply(state, action)
    return {
        "won": state.winner == me,
        "finished": state.winner is not None,
        "times": times,
        "cpu": cpu,
        "turns": state.turn,
    }


def report(rows, strength, opponent):
    n = len(rows)
    wins = sum(r["won"] for r in rows)
    out = {
        "strength": strength,
        "opponent": opponent,
        "games": n,
        "wins": wins,
        "unfinished": sum(not r["finished"] for r in rows),
        "rate": wilson(wins, n),
    }
    out["by_seat"] = {}
    for seat in (0, 1):
        sub = [r for r in rows if r["seat"] == seat]
        out["by_seat"][seat] = {
            "games": len(sub),
            "wins": sum(r["won"] for r in sub),
            "rate": wilson(sum(r["won"] for r in sub), len(sub)),
        }
    out["by_race"] = {}
    for race in sorted({x for pair in RACE_PAIRS for x in pair}):
        sub = [r for r in rows if race in r["races"]]
        out["by_race"][race] = {
            "games": len(sub),
            "wins": sum(r["won"] for r in sub),
            "rate": wilson(sum(r["won"] for r in sub), len(sub)),
        }
    cpu = sorted(t for r in rows for t in r["cpu"])
    out["decision_cpu_seconds"] = {
        "decisions": len(cpu),
        "median": percentile(cpu, 0.5),
        "p95": percentile(cpu, 0.95),
        "max": cpu[-1] if cpu else None,
    }
    times = sorted(t for r in rows for t in r["times"])
    out["decision_seconds"] = {
        "decisions": len(times),
        "median": percentile(times, 0.5),
        "p90": percentile(times, 0.9),
        "p95": percentile(times, 0.95),
        "p99": percentile(times, 0.99),
        "max": times[-1] if times else None,
    }
    return out


def fmt_rate(rate):
    p, lo, hi = rate
    return f"{100 * p:5.1f} % [{100 * lo:4.1f}, {100 * hi:4.1f}]"


def show(out):
    strength, opponent = out["strength"], out["opponent"]
    ds = out["decision_seconds"]
    print(
        f"search-{strength} vs {opponent}: {out['wins']}/{out['games']} "
        f"{fmt_rate(out['rate'])} (unfinished {out['unfinished']}); "
        f"seat 0 {fmt_rate(out['by_seat'][0]['rate'])}, "
        f"seat 1 {fmt_rate(out['by_seat'][1]['rate'])}"
    )
    print(
        "  per race: "
        + ", ".join(f"{race} {v['wins']}/{v['games']}" for race, v in out["by_race"].items())
    )
    if ds["decisions"]:
        print(
            f"  seconds per decision ({ds['decisions']}): median {ds['median']:.3f} "
            f"p90 {ds['p90']:.3f} p95 {ds['p95']:.3f} p99 {ds['p99']:.3f} "
            f"max {ds['max']:.3f}"
        )
        dc = out["decision_cpu_seconds"]
        print(
            f"  CPU seconds per decision: median {dc['median']:.3f} "
            f"p95 {dc['p95']:.3f} max {dc['max']:.3f}"
        )


def report_logs(args):
    """The report of games logged by earlier runs (--log), e.g. a run split in parts."""
    rows = []
    seen = set()
    for name in args.from_log:
        for line in Path(name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["strength"] not in args.strengths or row["opponent"] not in args.opponents:
                continue
            if args.settings_tag is not None and row.get("tag") != args.settings_tag:
                continue
            key = (row["strength"], row["opponent"], row.get("seed"), row["index"], row.get("tag"))
            if key in seen:  # the same game logged twice: counted once
                continue
            seen.add(key)
            rows.append(row)
    results = []
    for strength in args.strengths:
        for opponent in args.opponents:
            sub = [r for r in rows if r["strength"] == strength and r["opponent"] == opponent]
            if not sub:
                continue
            out = report(sub, strength, opponent)
            out["indices"] = sorted(r["index"] for r in sub)
            results.append(out)
            show(out)
    if args.json:
        Path(args.json).write_text(json.dumps({"args": vars(args), "results": results}, indent=1))
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", default="1")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--games", type=int, default=None, help="stop after N games per pair")
    parser.add_argument("--start", type=int, default=0, help="skip the first K of those games")
    parser.add_argument("--strengths", nargs="+", default=["easy", "normal", "hard"])
    parser.add_argument("--opponents", nargs="+", default=["random", "heuristic"])
    parser.add_argument("--turn-limit", type=int, default=300, help="unfinished after it")
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="the bot's time budget in CPU seconds (one core, whatever the load) or wall",
    )
    parser.add_argument("--json", default=None)
    parser.add_argument("--log", default=None, help="append each game as a JSON line")
    parser.add_argument(
        "--settings",
        type=json.loads,
        default=None,
        help="JSON overriding the strength's settings (engine.search.STRENGTHS), e.g. '{\"minor\": 0.5}'",
    )
    parser.add_argument(
        "--from-log",
        nargs="+",
        default=None,
        help="report the games of these --log files (no game is played); with --strengths, "
        "--opponents and --settings-tag to pick them",
    )
    parser.add_argument("--settings-tag", default=None, help="logged with each game (--log)")
    args = parser.parse_args(argv)
    if args.from_log:
        return report_logs(args)
    cards = load_cards()
    games = schedule(args.seed, args.rounds)
    if args.games is not None:  # interleave seats so a short run still has both
        games = [
            g
            for pair in zip(games[: len(games) // 2], games[len(games) // 2 :], strict=True)
            for g in pair
        ][: args.games]
    games = list(enumerate(games))[args.start :]  # (schedule index, game): seeds stay put
    results = []
    for strength in args.strengths:
        for opponent in args.opponents:
            rows = []
            started = time.perf_counter()
            for done, (i, game) in enumerate(games):
                row = play(
                    cards,
                    game,
                    strength,
                    opponent,
                    args.seed,
                    i,
                    args.turn_limit,
                    args.clock,
                    args.settings,
                )
                row.update(seat=game["seat"], races=game["races"])
                rows.append(row)
                if args.log:  # one line per game, so a run stopped early keeps its games
                    with open(args.log, "a", encoding="utf-8") as log:
                        log.write(
                            json.dumps(
                                {
                                    "strength": strength,
                                    "opponent": opponent,
                                    "index": i,
                                    "seed": args.seed,
                                    "settings": args.settings,
                                    "tag": args.settings_tag,
                                    **row,
                                }
                            )
                            + "\n"
                        )
                sys.stderr.write(
                    f"\r{strength} vs {opponent}: {done + 1}/{len(games)} games, "
                    f"{sum(r['won'] for r in rows)} won, "
                    f"{time.perf_counter() - started:.0f} s"
                )
                sys.stderr.flush()
            sys.stderr.write("\n")
            out = report(rows, strength, opponent)
            out["seconds"] = time.perf_counter() - started
            results.append(out)
            show(out)
            sys.stdout.flush()
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {"python": platform.python_version(), "args": vars(args), "results": results},
                indent=1,
            )
        )


if __name__ == "__main__":
    main()

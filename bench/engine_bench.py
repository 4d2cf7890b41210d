"""Speed of the rules engine (engine/): random-vs-random games on one core.

    .venv/bin/python bench/engine_bench.py [--games 200] [--runs 3]

Per run: `--games` complete games between two uniform random bots with the EX-1
colonies (`laci` vs `dani` of engine.simulate), one process, one core. Measured:
games/s and decisions/s (a decision = `legal_actions`, the random pick and
`apply`); the latency of `apply` alone (p50/p95/p99 over every decision of the
run) and of `legal_actions`; and `dump` + `load` of a mid-game state (the state at the
middle decision of the run's first game; median of 200 round trips) with its JSON
size. games/s and decisions/s are also given per second of the process's CPU time
(`time.process_time`: `games_per_cpu_s`, `decisions_per_cpu_s`), the fairer figure when
the machine is shared and the process waits for a core. Then `--heuristic-games` complete games between two `HeuristicBot`s (the
"deck lab" case: `bot.choose` scores every legal action), timed as a whole:
heuristic games/s. These games stop at turn 300 like `engine.simulate`'s (a few
heuristic pairings never end: seed `bench-h-1-73` still runs at turn 400). Each figure is the median over `--runs` runs. Raw numbers go to
bench/out/engine_bench.json (bench/out/engine_bench_<n>p.json with `--seats n`).

`--seats 3..6` plays multiplayer tables instead (R 17.1): the `laci` and `dani` colonies
alternate round the table, one bot per seat; the two-player run (the default) is unchanged.

Both builds of the engine (issue 18, engine/_build.py): each run is played by the compiled
engine and by the pure-Python one (a child process with KGK_ENGINE_PURE=1), one after the
other, alternating, so the two are measured in the same minutes; the output gives each
build's medians and their ratios (compiled / pure: games and decisions per CPU-second, and
pure / compiled for the clone time). Also per run: `clone` of the mid-game state (median of
500) and `legal_actions` + `apply` per decision (median, µs). `--build compiled|pure` runs
one build only (in this process).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import _build  # noqa: E402
from engine.basic_bots import HeuristicBot, RandomBot  # noqa: E402
from engine.collector import collector_paused  # noqa: E402
from engine.colonies import PRESETS, build_colony, load_cards  # noqa: E402
from engine.game import apply, legal_actions, new_game, pending  # noqa: E402
from engine.ruleset import Ruleset  # noqa: E402
from engine.serialize import clone, dump, load  # noqa: E402


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


HEURISTIC_TURN_LIMIT = 300  # as engine.simulate


def heuristic_run(colonies, games, seed):
    decisions = 0
    unfinished = 0
    rules = Ruleset(turn_limit=HEURISTIC_TURN_LIMIT)
    started = time.perf_counter()
    for i in range(games):
        state = new_game(colonies, f"bench-h-{seed}-{i}", rules)
        bots = [HeuristicBot(f"{seed}-{i}-{s}") for s in range(len(colonies))]
        with collector_paused():  # as engine.simulate and the deck lab play a game
            while (p := pending(state)) is not None:
                apply(state, bots[p.player].choose(state, p.player))
                decisions += 1
        unfinished += state.result == "turn_limit"
    elapsed = time.perf_counter() - started
    return {
        "heuristic_games_per_s": games / elapsed,
        "heuristic_decisions_per_game": decisions / games,
        "heuristic_unfinished": unfinished,
    }


def one_run(colonies, games, seed):
    apply_times = []
    legal_times = []
    step_times = []
    decisions = 0
    middle = None
    started = time.perf_counter()
    cpu_started = time.process_time()
    for i in range(games):
        state = new_game(colonies, f"bench-{seed}-{i}")
        bots = [RandomBot(f"{seed}-{i}-{s}") for s in range(len(colonies))]
        log = []
        with collector_paused():  # as engine.simulate and the deck lab play a game
            while (p := pending(state)) is not None:
                t0 = time.perf_counter()
                actions = legal_actions(state)
                t1 = time.perf_counter()
                action = actions[bots[p.player].rng.below(len(actions))]  # RandomBot.choose
                t2 = time.perf_counter()
                apply(state, action)
                t3 = time.perf_counter()
                apply_times.append(t3 - t2)
                legal_times.append(t1 - t0)
                step_times.append(t3 - t2 + t1 - t0)
                log.append(action.id)
                decisions += 1
        if i == 0:
            middle = (f"bench-{seed}-{i}", log[: len(log) // 2])
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    # a mid-game state of the first game
    state = new_game(colonies, middle[0])
    for action_id in middle[1]:
        apply(state, action_id)
    assert legal_actions(state)
    text = dump(state)
    rounds = []
    for _ in range(200):
        t0 = time.perf_counter()
        load(dump(state))
        rounds.append(time.perf_counter() - t0)
    clones = []
    for _ in range(500):
        t0 = time.perf_counter()
        clone(state)
        clones.append(time.perf_counter() - t0)
    return {
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "games_per_cpu_s": games / cpu,
        "decisions_per_cpu_s": decisions / cpu,
        "decisions_per_game": decisions / games,
        "apply_p50_ms": 1000 * percentile(apply_times, 0.50),
        "apply_p95_ms": 1000 * percentile(apply_times, 0.95),
        "apply_p99_ms": 1000 * percentile(apply_times, 0.99),
        "legal_actions_p50_ms": 1000 * percentile(legal_times, 0.50),
        "legal_actions_p95_ms": 1000 * percentile(legal_times, 0.95),
        "dump_load_ms": 1000 * statistics.median(rounds),
        "clone_us": 1e6 * statistics.median(clones),
        "legal_apply_p50_us": 1e6 * percentile(step_times, 0.50),
        "state_bytes": len(text.encode()),
    }


RATIOS = (  # (figure, True: compiled / pure; False: pure / compiled (a time))
    ("games_per_cpu_s", True),
    ("decisions_per_cpu_s", True),
    ("games_per_s", True),
    ("clone_us", False),
    ("legal_apply_p50_us", False),
)


def measure(colonies, args, r):
    run = one_run(colonies, args.games, r)
    if args.heuristic_games:
        run.update(heuristic_run(colonies, args.heuristic_games, r))
    return run


def child(args, build, r):
    """One run in a process of its own on `build` (the engine picks it at import)."""
    env = dict(os.environ)
    env.pop("KGK_ENGINE_PURE", None)
    if build == "pure":
        env["KGK_ENGINE_PURE"] = "1"
    cmd = [sys.executable, __file__, "--build", build, "--runs", "1", "--first-run", str(r)]
    cmd += ["--games", str(args.games), "--heuristic-games", str(args.heuristic_games)]
    cmd += ["--seats", str(args.seats), "--child"]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    result = json.loads(out)
    assert result["build"] == build, f"asked for the {build} engine, got {result['build']}"
    return result["runs"][0]


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--heuristic-games", type=int, default=100)
    parser.add_argument("--seats", type=int, default=2, help="3-6: multiplayer tables (R 17.1)")
    parser.add_argument(
        "--build",
        choices=("both", "compiled", "pure"),
        default="both",
        help="both (default): each run on both builds, alternating, in child processes",
    )
    parser.add_argument("--first-run", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    cards = load_cards()
    pair = [build_colony(cards, PRESETS["laci"]), build_colony(cards, PRESETS["dani"])]
    colonies = [pair[s % 2] for s in range(args.seats)]
    if args.child:
        runs = [measure(colonies, args, args.first_run)]
        print(json.dumps({"build": _build.BUILD, "runs": runs}))
        return
    builds = ["compiled", "pure"] if args.build == "both" else [args.build]
    if args.build != "both" and _build.BUILD != args.build:
        parser.error(f"the engine here is the {_build.BUILD} one ({_build.REASON})")
    if args.build == "both" and not (_build.OUT / "manifest.json").is_file():
        parser.error("no compiled engine (make setup builds it): use --build pure")
    runs = {b: [] for b in builds}
    for r in range(args.runs):
        for b in builds if r % 2 == 0 else builds[::-1]:  # alternate who goes first
            run = child(args, b, r) if args.build == "both" else measure(colonies, args, r)
            runs[b].append(run)
            print(
                f"run {r + 1} {b}: " + ", ".join(f"{k}={v:.3f}" for k, v in run.items()),
                file=sys.stderr,
            )
    median = {
        b: {k: statistics.median(run[k] for run in rs) for k in rs[0]} for b, rs in runs.items()
    }
    summary = {"median": median}
    if args.build == "both":
        summary["ratio"] = {
            k: (
                median["compiled"][k] / median["pure"][k]
                if up
                else median["pure"][k] / median["compiled"][k]
            )
            for k, up in RATIOS
        }
    print(json.dumps(summary, indent=2))
    out = ROOT / "bench" / "out"
    out.mkdir(exist_ok=True)
    name = "engine_bench.json" if args.seats == 2 else f"engine_bench_{args.seats}p.json"
    (out / name).write_text(
        json.dumps(
            {
                "python": platform.python_version(),
                "machine": platform.processor() or platform.machine(),
                "games": args.games,
                "seats": args.seats,
                "heuristic_games": args.heuristic_games,
                "runs": runs,
                **summary,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()

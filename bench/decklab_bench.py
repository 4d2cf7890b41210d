"""Deck lab: a run of 1,000 games on two Celery worker processes (goal: <= 30 s).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kgk .venv/bin/python bench/decklab_bench.py [--runs 3] [--games 1000] [--workers 2] [--bot heuristic]

`--bot search-easy|search-normal|search-hard` runs the lab with the thinking bot on both
sides (issue 18; a few games: a game takes seconds to minutes), and prints the expected time
the lab's page would have shown beside the measured one.

Uses its own database `kgk_bench_decklab` (dropped and recreated; `--db-name`) and Redis DB 2
(flushed; `--redis`).
Times each run from `start_run` (the web tier's write) to the run's status `done` (the last
chunk stored by a worker): what the person watching the progress bar waits. Prints the
median of the runs and the games per second per worker process.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchdb import ROOT, bench_url, recreate_database, setup_django  # noqa: E402

REDIS = "redis://127.0.0.1:6379/2"


def start_workers(n: int, db_url: str) -> list:
    env = {**os.environ, "DATABASE_URL": db_url, "REDIS_URL": REDIS, "DEBUG": "false",
           "DATABASE_POOL": "1"}  # fmt: skip
    celery = str(Path(sys.executable).with_name("celery"))
    procs = []
    for i in range(n):
        log = open(ROOT / "bench" / "out" / f"decklab_worker{i}.log", "w")  # noqa: SIM115
        procs.append(
            subprocess.Popen(
                [
                    celery,
                    "-A",
                    "cardgame",
                    "worker",
                    "-c",
                    "1",
                    "--prefetch-multiplier=1",
                    "--without-mingle",
                    "--without-gossip",
                    "-l",
                    "info",
                    "-n",
                    f"bench{i}@%h",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )  # fmt: skip
        )
    for i in range(n):
        path = ROOT / "bench" / "out" / f"decklab_worker{i}.log"
        deadline = time.monotonic() + 60
        while " ready." not in path.read_text(errors="replace"):
            if time.monotonic() > deadline:
                sys.exit(f"worker {i} did not start: {path}")
            time.sleep(0.2)
    return procs


def in_process_rate(deck, games=40, bot="heuristic") -> float:
    """Games per second of the same simulation in this process: the floor the workers share."""
    from decklab import chunks, simulation
    from decklab.reference import reference_decks
    from decks import play

    colony = play.frozen_entries(deck)
    started = time.perf_counter()
    for ref in reference_decks():
        run = type("Run", (), {"colony": colony})()
        simulation.play_games(
            chunks.run_colonies(run, ref["key"]), seed="baseline", first=0,
            games=games // 4, ruleset=play.game_ruleset("original", turn_limit=simulation.TURN_LIMIT),
            bot=bot,
        )  # fmt: skip
    return games / (time.perf_counter() - started)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--bot",
        default="heuristic",
        choices=["heuristic", "search-easy", "search-normal", "search-hard"],
    )
    parser.add_argument(
        "--baseline-games",
        type=int,
        default=None,
        help="games of the in-process baseline (default 40; 0 with a search bot)",
    )
    parser.add_argument("--db-name", default="kgk_bench_decklab")
    parser.add_argument("--redis", default=REDIS)
    args = parser.parse_args()
    globals()["REDIS"] = args.redis  # start_workers and the flush below read it
    (ROOT / "bench" / "out").mkdir(exist_ok=True)
    url = bench_url(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kgk"),
                    args.db_name)  # fmt: skip
    recreate_database(url)
    setup_django(url)
    import redis
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from cardgame.celery import app
    from decklab import services
    from decklab.models import LabRun
    from decklab.selectors import run_results
    from decks import services as deck_services
    from engine.colonies import build_colony, load_cards

    call_command("load_cards", verbosity=0)
    redis.Redis.from_url(REDIS).flushdb()
    app.conf.update(broker_url=REDIS, task_always_eager=False, result_backend=None)
    user = get_user_model().objects.create_user("bench", password="pw-bench-123")
    counts = {}
    for card in build_colony(load_cards(), ["xeno", "insectoid", "zarg", "space_shark"]):
        counts[card["code"]] = counts.get(card["code"], 0) + 1
    deck = deck_services.save_deck(user, name="Bench", cards=sorted(counts.items()))
    baseline_games = args.baseline_games
    if baseline_games is None:
        baseline_games = 40 if args.bot == "heuristic" else 0
    if baseline_games:
        baseline = in_process_rate(deck, baseline_games, args.bot)
        print(f"in-process baseline: {baseline:.1f} games/s on one core (same games, no Celery); "
              f"ideal for {args.games} games on {args.workers} workers: "
              f"{args.games / baseline / args.workers:.1f} s; load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    expected = services.expected_seconds(args.bot, args.games, args.workers)
    print(
        f"bot {args.bot}: the lab's page would show an expected {expected:.0f} s "
        f"for {args.games} games on {args.workers} workers"
    )
    procs = start_workers(args.workers, url)
    seconds = []
    try:
        for i in range(args.runs):
            started = time.perf_counter()
            run = services.start_run(user, deck, args.games, args.bot)
            while True:
                run.refresh_from_db()
                if run.status in (LabRun.DONE, LabRun.FAILED):
                    break
                time.sleep(0.05)
            elapsed = time.perf_counter() - started
            result = run_results(run)
            seconds.append(elapsed)
            print(
                f"run {i + 1}: {elapsed:.1f} s (load average {os.getloadavg()[0]:.1f}), {result['done']} games, status {run.status}, "
                f"{result['chunks']} chunks on {result['workers']} workers, "
                f"{result['turns_per_game']} turns/game, win rate {result['overall']['rate']} %"
            )
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)
    median = statistics.median(seconds)
    print(
        f"bot {args.bot}: median {median:.1f} s for {args.games} games on {args.workers} workers "
        f"({args.games / median:.1f} games/s, {args.games / median / args.workers:.1f} per worker; "
        f"{median * args.workers / args.games:.1f} s of a worker per game); "
        + (
            f"goal <= 30 s: {'met' if median <= 30 else 'NOT met'}"
            if args.bot == "heuristic"
            else f"expected {expected:.0f} s"
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

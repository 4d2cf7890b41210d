"""Deck advice (issue 39): one race of the planted-weakness deck's candidates against the
gauntlet with the heuristic bot, and the games racing saved.

    .venv/bin/python bench/advice_bench.py [--candidates 10] [--budget 6000] [--seed bench]

in this process (no database: the games of decklab.advice, the racing rule of
decklab.racing);

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kgk .venv/bin/python bench/advice_bench.py \
        --workers 2 [--runs 3] [--with-lab 3]

through the site on real Celery worker processes (PostgreSQL, Redis; its own database
`kgk_bench_advice` and Redis DB 8, both emptied): an advice run started as "Improve this
deck" starts one (decklab.advising), timed from the start to its status `done`, the race's
rounds split into chunks the workers share. `--with-lab K` then measures the lab's 1,000
heuristic games on the same workers while K advice runs (10 candidates each, other
accounts) are in flight, against the in-process ideal measured just before (issue 39: within
1.2x): advice's chunks wait behind the lab's (decklab.advice_queue).

The deck is the Vanguard reference colony with three cards swapped for weak ones (the same
plant as tests/decklab/test_advice.py). Prints each candidate's verdict, games and interval,
the wall time, the games played (the deck's, the candidates', the fresh re-measurement),
and the candidate games a fixed design needs for the same decisions (every candidate as many
games as the longest-raced one: racing.fixed_games).
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from decklab import advice, racing, simulation  # noqa: E402
from decklab.reference import reference_decks  # noqa: E402
from engine.colonies import load_cards  # noqa: E402
from engine.deck import RULESETS  # noqa: E402
from engine.ruleset import Ruleset  # noqa: E402

PLANTED = [("KG1-018", "KG1-019"), ("KG1-075", "KG1-136"), ("KG1-002", "KG1-126")]


def planted_entries() -> list[list]:
    entries = [list(e) for e in reference_decks()[0]["cards"]]
    for out, into in PLANTED:
        entries = advice.Change(out, into, 3).apply(entries)
    return entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=10)
    parser.add_argument("--budget", type=int, default=6000, help="the candidates' games")
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--workers", type=int, default=0, help="through N Celery workers")
    parser.add_argument("--runs", type=int, default=1, help="advice runs timed (--workers)")
    parser.add_argument("--with-lab", type=int, default=0, metavar="K",
                        help="then the lab's 1,000 games with K advice runs in flight")  # fmt: skip
    parser.add_argument("--db-name", default="kgk_bench_advice")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/8")
    args = parser.parse_args()
    if args.workers:
        through_workers(args)
    else:
        in_process(args)


def in_process(args) -> None:
    cards = {c["code"]: c for c in load_cards()}

    def colony(entries):
        return [cards[code] for code, n in entries for _copy in range(n)]

    entries = planted_entries()
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


# Through the site on real workers -----------------------------------------------------------


def through_workers(args) -> None:
    import decklab_bench
    from benchdb import bench_url, recreate_database, setup_django

    url = bench_url(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kgk"),
                    args.db_name)  # fmt: skip
    recreate_database(url)
    setup_django(url)
    import redis
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from cardgame.celery import app
    from decks import services as deck_services

    call_command("load_cards", verbosity=0)
    redis.Redis.from_url(args.redis).flushdb()
    decklab_bench.REDIS = args.redis  # the workers' broker
    app.conf.update(broker_url=args.redis, task_always_eager=False, result_backend=None)
    (decklab_bench.ROOT / "bench" / "out").mkdir(exist_ok=True)
    users = [
        get_user_model().objects.create_user(f"bench{i}", password="pw-bench-123")
        for i in range(max(1, args.with_lab) + 1)
    ]
    decks = [
        deck_services.save_deck(user, name="Planted", cards=planted_entries()) for user in users
    ]
    print(f"load average before the workers start: {load()}")
    procs = decklab_bench.start_workers(args.workers, url)
    try:
        seconds = [timed_advice(users[0], decks[0], args) for _ in range(args.runs)]
        if seconds:
            print(f"advice: median {statistics.median(seconds):.1f} s of {len(seconds)} runs "
                  f"on {args.workers} workers (goal <= 120 s)")  # fmt: skip
        if args.with_lab:
            lab_with_advice_in_flight(users, decks, args)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def wait_done(run, statuses, timeout=1800):
    deadline = time.monotonic() + timeout
    while run.status not in statuses:
        if time.monotonic() > deadline:
            sys.exit(f"{run} still {run.status} after {timeout} s")
        time.sleep(0.05)
        run.refresh_from_db()
    return run


def timed_advice(user, deck, args) -> float:
    from decklab import advising
    from decklab.models import AdviceRun

    started = time.perf_counter()
    run = advising.start_advice(user, deck, budget=args.budget)
    wait_done(run, (AdviceRun.DONE, AdviceRun.FAILED, AdviceRun.CANCELLED))
    elapsed = time.perf_counter() - started
    report_run(run, elapsed)
    return elapsed


def report_run(run, elapsed: float) -> None:
    from collections import Counter

    state = racing.Race.restore(run.race["race"])
    weak = {into for _out, into in PLANTED}
    for row in run.candidates:
        mark = "planted" if row["out"] in weak else ""
        print(f"  {row['out']}->{row['into']} x{row['count']} {row['verdict']:9} "
              f"{row['games']:5} games {100 * row['change']:+6.1f} "
              f"[{100 * row['low']:+6.1f}, {100 * row['high']:+6.1f}] {mark}")  # fmt: skip
    chunks = run.chunks.all()
    workers = Counter(chunk.worker for chunk in chunks)
    fixed = racing.fixed_games(state)
    saved = 100 * (1 - state.spent / fixed) if fixed else 0.0
    print(f"run {run.pk}: {run.status} in {elapsed:.1f} s (load {load()}), {run.games_played} "
          f"games ({run.games_played / elapsed:.1f}/s), {state.played} rounds, "
          f"{len(chunks)} chunks on {len(workers)} workers {sorted(workers.values())}; "
          f"candidate games {state.spent}, a fixed design {fixed}: racing saved {saved:.0f} %; "
          f"verdicts {dict(Counter(state.verdicts))}")  # fmt: skip
    found = run.remeasured
    if found:
        fixed_weak = sorted({c["out"] for c in found["changes"]} & weak)
        print(f"  recommended {len(found['changes'])} changes, planted found {fixed_weak}; "
              f"fresh {found['games']} games {100 * found['change']:+.1f} "
              f"[{100 * found['low']:+.1f}, {100 * found['high']:+.1f}] holds={found['holds']}")  # fmt: skip


def timed_lab(user, deck) -> tuple[float, object]:
    from decklab import services
    from decklab.models import LabRun

    started = time.perf_counter()
    lab = services.start_run(user, deck, 1000)
    wait_done(lab, (LabRun.DONE, LabRun.FAILED))
    return time.perf_counter() - started, lab


def lab_with_advice_in_flight(users, decks, args) -> None:
    """The lab's 1,000 heuristic games alone and then while advice runs of other accounts
    race, each against the in-process ideal measured just before it (the machine is shared:
    its load moves the ideal too)."""
    import decklab_bench
    from django.db.models import Q
    from django.utils import timezone

    from decklab import advising
    from decklab.models import AdviceChunk, AdviceRun

    baseline = decklab_bench.in_process_rate(decks[0], 40)
    ideal = 1000 / baseline / args.workers
    alone, lab = timed_lab(users[0], decks[0])
    print(f"lab 1,000 games alone: {alone:.1f} s; in-process ideal {ideal:.1f} s "
          f"({baseline:.1f} games/s): {alone / ideal:.2f}x; load {load()}; lab {lab.status}")  # fmt: skip
    runs = [
        advising.start_advice(u, d, budget=20000) for u, d in zip(users[1:], decks[1:], strict=True)
    ]
    deadline = time.monotonic() + 120
    while AdviceChunk.objects.filter(status=AdviceChunk.PENDING).count() < 2 * len(runs):
        if time.monotonic() > deadline:
            sys.exit("the advice runs queued no chunks")
        time.sleep(0.1)
    baseline = decklab_bench.in_process_rate(decks[0], 40)  # with the advice runs playing
    ideal = 1000 / baseline / args.workers
    in_flight = AdviceChunk.objects.filter(status=AdviceChunk.PENDING).count()
    since = timezone.now()
    elapsed, lab = timed_lab(users[0], decks[0])
    played = AdviceChunk.objects.filter(Q(finished__gte=since), status=AdviceChunk.DONE).count()
    print(f"lab 1,000 games with {len(runs)} advice runs in flight: {elapsed:.1f} s "
          f"({in_flight} advice chunks waiting at its start; {played} advice chunks finished "
          f"while it ran); in-process ideal {ideal:.1f} s ({baseline:.1f} games/s): "
          f"{elapsed / ideal:.2f}x (goal <= 1.2x); load {load()}; lab {lab.status}")  # fmt: skip
    for run in runs:
        advising.cancel(run)
    for run in runs:
        wait_done(run, (AdviceRun.DONE, AdviceRun.FAILED, AdviceRun.CANCELLED), timeout=120)


if __name__ == "__main__":
    main()

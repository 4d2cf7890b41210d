"""Time to pair the last Swiss round, N = 64 ... 16,384 players (figures in RESULTS.md).

Each event is simulated as a real one: ceil(log2 N) rounds (R 18.7), every earlier
round paired by `pair_round` itself from the standings of `standings()`, results
drawn at random from hidden skills (Elo-style win chance, best-of-three game
scores 2-0 or 2-1), a few late entries in round 2, and drops (losing records drop
more often). Then the last round is paired `--repeats` times and timed
(`time.perf_counter()` around `pair_round` only; its input list is built once).
The script checks every result: each active player once, no dropped player,
the bye to a player without one, and counts rematches; a result with rematches
and at most 300 active players is compared with the exact pairing, and the
rematches beyond its count are reported as avoidable ("?" above 300 players).

    .venv/bin/python bench/pairing_bench.py                 # all sizes
    .venv/bin/python bench/pairing_bench.py --sizes 64,4096 --events 1
    .venv/bin/python bench/pairing_bench.py --sizes 512 --exact-sizes 512 --groups-sizes 256
    .venv/bin/python bench/pairing_bench.py --sizes 4096,16384 --no-drops   # active = N
    .venv/bin/python bench/pairing_bench.py --sizes 4096,16384 --gc-freeze
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import networkx  # noqa: E402

from tournaments.standings import Entrant, SetRecord, player_records, standings  # noqa: E402
from tournaments.swiss import EXACT_LIMIT, pair_round  # noqa: E402

GOALS_MS = {"le256": 500.0, 4096: 50.0, 16384: 200.0}


def simulate(n: int, event: int, rng: random.Random, drops: bool = True):
    """An event of n players up to the last round: (records for the last round, rounds)."""
    rounds = max(1, math.ceil(math.log2(n)))
    skill = {i: rng.gauss(1500, 200) for i in range(1, n + 1)}
    dropped: set[int] = set()
    matches: list[SetRecord] = []
    next_id = n + 1
    for rnd in range(1, rounds):
        if rnd == 2:  # late entries, about 0.5 %
            for _ in range(max(1, n // 200)):
                skill[next_id] = rng.gauss(1450, 200)
                next_id += 1
        entrants = [Entrant(pid, pid in dropped) for pid in skill]
        records = player_records(standings(entrants, matches))
        pairing = pair_round(records, seed=f"bench-{n}-{event}-{rnd}")
        if pairing.bye is not None:
            matches.append(SetRecord.bye(rnd, pairing.bye))
        for a, b in pairing.pairs:
            p_a = 1 / (1 + 10 ** ((skill[b] - skill[a]) / 400))
            loser_games = rng.choice((0, 1))
            if rng.random() < p_a:
                matches.append(SetRecord(rnd, a, b, 2, loser_games))
            else:
                matches.append(SetRecord(rnd, a, b, loser_games, 2))
        losses: dict[int, int] = {}
        for m in matches:
            if m.b is not None:
                loser = m.b if m.games_a > m.games_b else m.a
                losses[loser] = losses.get(loser, 0) + 1
        for pid in skill:
            if pid in dropped:
                continue
            chance = 0.05 if losses.get(pid, 0) * 2 > rnd else 0.005
            if rng.random() < chance and drops:
                dropped.add(pid)
    entrants = [Entrant(pid, pid in dropped) for pid in skill]
    return player_records(standings(entrants, matches)), rounds


def check(records, pairing, seed) -> dict:
    active = [r for r in records if not r.dropped]
    by_id = {r.id: r for r in records}
    seen = [x for pr in pairing.pairs for x in pr] + (
        [pairing.bye] if pairing.bye is not None else []
    )
    assert sorted(seen) == sorted(r.id for r in active), "not every active player once"
    if pairing.bye is not None and any(not r.had_bye for r in active):
        assert not by_id[pairing.bye].had_bye, "bye to a player who had one"
    rematches = sum(1 for a, b in pairing.pairs if b in by_id[a].opponents)
    assert rematches == pairing.rematches
    avoidable = 0
    if rematches:  # compare with the exact pairing, where that is affordable
        if len(active) <= 300:
            avoidable = rematches - pair_round(records, seed=seed, method="exact").rematches
        else:
            avoidable = None
    return {"rematches": rematches, "avoidable": avoidable}


def run(n: int, events: int, repeats: int, method: str, base_seed: int, opts) -> dict:
    times, info = [], []
    sim_s = 0.0
    for event in range(events):
        rng = random.Random(f"{base_seed}-{n}-{event}")
        t0 = time.perf_counter()
        records, rounds = simulate(n, event, rng, drops=not opts.no_drops)
        if opts.gc_freeze:
            gc.collect()
            gc.freeze()
        sim_s += time.perf_counter() - t0
        seed = f"bench-{n}-{event}-last"
        runs = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            pairing = pair_round(records, seed=seed, method=method)
            runs.append(time.perf_counter() - t0)
        times.extend(runs)
        if opts.gc_freeze:
            gc.unfreeze()
        chk = check(records, pairing, seed)
        info.append(
            {
                "active": sum(1 for r in records if not r.dropped),
                "dropped": sum(1 for r in records if r.dropped),
                "rounds": rounds,
                "method": pairing.method,
                "median_ms": statistics.median(runs) * 1000,
                "rematches": chk["rematches"],
                "avoidable": chk["avoidable"],
                "score_gap": pairing.score_gap,
                "score_gap_bound": pairing.score_gap_bound,
                "stats": pairing.stats,
                "warnings": len(pairing.warnings),
            }
        )
    ms = sorted(t * 1000 for t in times)
    return {
        "n": n,
        "method": method,
        "events": info,
        "median_ms": statistics.median(ms),
        "min_ms": ms[0],
        "max_ms": ms[-1],
        "runs": len(ms),
        "rematches": sum(e["rematches"] for e in info),
        "avoidable": sum(e["avoidable"] for e in info)
        if all(e["avoidable"] is not None for e in info)
        else "?",
        "sim_s": sim_s,
    }


def _work(e: dict) -> str:
    """What was solved by networkx: exact: parts solved/parts (largest solved);
    groups: the number of exact blocks (players in them)."""
    st = e["stats"]
    if e["method"] == "exact":
        return f"{st['solved_parts']}/{st['parts']}({st['largest_solved']})"
    return f"b{st['exact_blocks']}({st['exact_block_players']})"


def goal(n: int) -> str:
    if n <= 256:
        return "≤ 500 ms"
    if n in GOALS_MS:
        return f"≤ {GOALS_MS[n]:.0f} ms"
    return "—"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="64,128,256,512,1024,2048,4096,8192,16384")
    ap.add_argument("--exact-sizes", default="", help="also time method='exact' at these N")
    ap.add_argument("--groups-sizes", default="", help="also time method='groups' at these N")
    ap.add_argument("--events", type=int, default=3, help="simulated events per N")
    ap.add_argument("--repeats", type=int, default=7, help="timed pairings per event")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--no-drops", action="store_true", help="nobody drops (active = N + late)")
    ap.add_argument("--gc-freeze", action="store_true", help="gc.freeze() the event before timing")
    ap.add_argument("--out", default=None, help="also write the raw figures (JSON) here")
    args = ap.parse_args()
    plan = [(int(s), "auto") for s in args.sizes.split(",") if s]
    plan += [(int(s), "exact") for s in args.exact_sizes.split(",") if s]
    plan += [(int(s), "groups") for s in args.groups_sizes.split(",") if s]
    print(
        f"python {platform.python_version()}, networkx {networkx.__version__}, "
        f"EXACT_LIMIT={EXACT_LIMIT}, {args.events} events x {args.repeats} runs per N"
        + (", no drops" if args.no_drops else "")
        + (", gc.freeze()" if args.gc_freeze else "")
    )
    header = (
        f"{'N':>6} {'method':>7} {'active':>6} {'rnds':>4} {'median':>9} {'max':>9} "
        f"{'goal':>9} {'rematch':>7} {'avoid':>5} {'gap/bound':>11} {'matchings':>26} {'sim s':>6}"
    )
    print(header)
    results = []
    for n, method in plan:
        r = run(n, args.events, args.repeats, method, args.seed, args)
        results.append(r)
        e0 = r["events"]
        used = "/".join(sorted({e["method"] for e in e0}))
        gaps = ",".join(f"{e['score_gap']}/{e['score_gap_bound']}" for e in e0)
        blocks = ",".join(_work(e) for e in e0)
        print(
            f"{n:>6} {used:>7} {e0[0]['active']:>6} {e0[0]['rounds']:>4} "
            f"{r['median_ms']:>7.1f}ms {r['max_ms']:>7.1f}ms {goal(n):>9} "
            f"{r['rematches']:>7} {r['avoidable']:>5} {gaps:>11} {blocks:>26} {r['sim_s']:>6.1f}",
            flush=True,
        )
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(results, indent=1, default=str))
        print(f"raw figures: {out}")


if __name__ == "__main__":
    main()

"""Is the automatic pairing least-cost at every size? (issue 35; figures in RESULTS.md)

For each size, `--events` simulated events (bench/pairing_bench.py's `simulate`: every
earlier round paired by `pair_round`, random results, late entries, drops) up to their
last round; that round is paired by the automatic method `--repeats` times (CPU time of
`pair_round` alone, `time.process_time()`; the median is reported) and its cost, the
tuple (B, F, R, Y, G1, G2, L, S) of swiss.py's docstring restated here, is compared:

  * with the exact method's (`method="exact"`) for the first `--exact-events` events of
    every size up to `--exact-max` players (12 s and 150 s of CPU an event at 4,096 and
    16,384 players): its parts are solved by matching (networkx's blossom algorithm), the
    automatic method's on the line (swiss._line_pairs), two independent ways to the least
    S of each part;
  * for every event, with lower bounds computed here from the standings alone: the bye
    (the lowest-ranked player without one: B = 0 and the least Y), no rematch (R = 0)
    and G1, G2 and L at the least the score groups allow (every boundary with an odd
    number of players above it crossed by exactly one pair, by the lowest-ranked player
    above it). A pairing at these bounds with S at the least of its one-level parts is
    optimal on the tiers above S; S itself is then the line programme's exact minimum
    (swiss._line_pairs, checked against brute force in tests/tournaments/);
  * when L is above its bound (no clean pairing floats the lowest-ranked player of every
    odd level), with `no_smaller_l`: every choice of floaters with a smaller L is shown,
    here, to leave a part without a clean pairing (a matching of the part's compatible
    pairs), so the L is the least.

    .venv/bin/python bench/pairing_certified_bench.py                 # 64 ... 16,384
    .venv/bin/python bench/pairing_certified_bench.py --sizes 4096 --events 10
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import networkx  # noqa: E402
from pairing_bench import simulate  # noqa: E402

from tournaments.swiss import pair_round, seed_key  # noqa: E402


def tiers(records, pairing, seed) -> tuple:
    """(B, F, R, Y, G1, G2, L, S) of a pairing (no forbidden pairs in a simulated event)."""
    act = sorted(
        (r for r in records if not r.dropped), key=lambda r: (-r.points, r.rank, str(r.id))
    )
    n = len(act)
    pos = {r.id: i for i, r in enumerate(act)}
    by = {r.id: r for r in act}
    order = sorted(act, key=lambda r: (-r.points, seed_key(seed, r.id), str(r.id)))
    sp = {r.id: i for i, r in enumerate(order)}
    b = y = r_ = g1 = g2 = l_ = s = 0
    if pairing.bye is not None:
        b, y = int(by[pairing.bye].had_bye), n - 1 - pos[pairing.bye]
    for x, z in pairing.pairs:
        hi, lo = (by[x], by[z]) if pos[x] < pos[z] else (by[z], by[x])
        d = hi.points - lo.points
        r_ += lo.id in hi.opponents or hi.id in lo.opponents
        g1, g2 = g1 + d, g2 + d * d
        l_ += (n - 1 - pos[hi.id]) if d else 0
        s += abs(sp[x] - sp[z])
    return (b, 0, r_, y, g1, g2, l_, s)


def bounds(records) -> tuple:
    """The least (B, F, R, Y, G1, G2, L) any pairing can have, from the standings alone."""
    act = sorted(
        (r for r in records if not r.dropped), key=lambda r: (-r.points, r.rank, str(r.id))
    )
    n = len(act)
    bye = None
    if n % 2:
        bye = next((r for r in reversed(act) if not r.had_bye), act[-1])
    b, y = (int(bye.had_bye), n - 1 - act.index(bye)) if bye is not None else (0, 0)
    rest = [r for r in act if r is not bye]
    g1 = g2 = l_ = 0
    for k in range(len(rest) - 1):
        if rest[k].points != rest[k + 1].points and (k + 1) % 2 == 1:
            w = rest[k].points - rest[k + 1].points
            g1, g2, l_ = g1 + w, g2 + w * w, l_ + n - 1 - pos_of(act, rest[k])
    return (b, 0, 0, y, g1, g2, l_)


def pos_of(act, r):
    return act.index(r)


def no_smaller_l(records, pairing, excess: int) -> bool:
    """Whether no pairing with the same bye and G1, G2 at their bounds has an L below the
    pairing's, which is `excess` above the bound; an independent check of swiss's weighing.

    At the G1 and G2 bounds every odd boundary (an odd number of players above it) is
    crossed by one pair of the two levels beside it, and no other: a pairing is a choice of
    one floater per level above an odd boundary and a clean pairing of each level's part
    (its members less its floater, plus the one it receives), and L is the sum of the
    floaters' h, the bound when each is the lowest-ranked of its level. So every choice
    whose floaters' h exceed the bound's by less than `excess` must have a part without
    a clean pairing: checked here by a maximum-cardinality matching (networkx) on the
    part's compatible pairs, smallest parts first, parts of up to 400 players.
    """
    act = sorted(
        (r for r in records if not r.dropped), key=lambda r: (-r.points, r.rank, str(r.id))
    )
    n = len(act)
    h = {r.id: n - 1 - i for i, r in enumerate(act)}
    levels: list[list] = []
    for r in act:
        if r.id == pairing.bye:
            continue
        if levels and levels[-1][0].points == r.points:
            levels[-1].append(r)
        else:
            levels.append([r])
    above, odd = 0, []
    for lv in range(len(levels) - 1):
        above += len(levels[lv])
        if above % 2:
            odd.append(lv)

    def choices(k: int, budget: int):
        if k == len(odd):
            yield {}
            return
        members = levels[odd[k]]
        for r in reversed(members):
            extra = h[r.id] - h[members[-1].id]
            if extra > budget:
                break
            for more in choices(k + 1, budget - extra):
                yield {odd[k]: r, **more}

    for floaters in choices(0, excess - 1):
        parts = []
        for lv, members in enumerate(levels):
            part = [r for r in members if r is not floaters.get(lv)]
            if lv - 1 in floaters:
                part.append(floaters[lv - 1])
            parts.append(part)
        if not any(
            not has_clean_pairing(part) for part in sorted(parts, key=len) if len(part) <= 400
        ):
            return False
    return True


def has_clean_pairing(part) -> bool:
    g = networkx.Graph()
    g.add_nodes_from(range(len(part)))
    for i, a in enumerate(part):
        for j in range(i + 1, len(part)):
            b = part[j]
            if b.id not in a.opponents and a.id not in b.opponents:
                g.add_edge(i, j)
    return 2 * len(networkx.max_weight_matching(g, maxcardinality=True)) == len(part)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="64,256,1024,4096,16384")
    ap.add_argument("--events", type=int, default=10)
    ap.add_argument(
        "--first-event", type=int, default=0, help="events --first-event ... (to split a run)"
    )
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--exact-max", type=int, default=16384)
    ap.add_argument("--exact-events", type=int, default=10, help="events compared with exact")
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument(
        "--whole-max",
        type=int,
        default=1100,
        help="compare an uncertified answer with exact up to this many players",
    )
    args = ap.parse_args()
    print(f"python {platform.python_version()}; {args.events} events per size, "
          f"{args.repeats} timed pairings each (CPU time)", flush=True)  # fmt: skip
    for n in (int(x) for x in args.sizes.split(",")):
        rows = []
        for event in range(args.first_event, args.first_event + args.events):
            rng = random.Random(f"{args.seed}-{n}-{event}")
            records, _rounds = simulate(n, event, rng)
            seed = f"cert-{n}-{event}"
            times = []
            for _ in range(args.repeats):
                t0 = time.process_time()
                auto = pair_round(records, seed=seed)
                times.append(time.process_time() - t0)
            got = tiers(records, auto, seed)
            least = bounds(records)
            at_bounds = got[:7] == least
            # L above its bound (G1, G2 at theirs): is no smaller L possible? (checked here)
            l_above = got[6] - least[6] if got[:6] == least[:6] and got[6] > least[6] else 0
            l_least = no_smaller_l(records, auto, l_above) if l_above else None
            exact_equal, exact_s = None, None
            active = sum(not r.dropped for r in records)
            # an uncertified answer: the exact method would solve one matching of the whole
            # event (hours at 3,000 players): only up to --whole-max active players
            affordable = auto.certified or active <= args.whole_max
            if n <= args.exact_max and event < args.exact_events and affordable:
                t0 = time.process_time()
                exact = pair_round(records, seed=seed, method="exact")
                exact_s = time.process_time() - t0
                exact_equal = tiers(records, exact, seed) == got
            rows.append(
                (statistics.median(times), auto, got, at_bounds, exact_equal, exact_s, l_least)
            )
            print(f"N={n:>5} event {event}: active {sum(not r.dropped for r in records)}, "
                  f"{auto.method} certified={auto.certified} {auto.stats}, "
                  f"median {statistics.median(times) * 1000:.1f} ms, tiers at the bounds: "
                  f"{at_bounds}" + (f" (L {l_above} above, least: {l_least})" if l_above else "")
                  + f", S {got[7]}, = exact: {exact_equal}"
                  + (f" (exact {exact_s:.1f} s)" if exact_s is not None else ""),
                  flush=True)  # fmt: skip
        medians = sorted(r[0] * 1000 for r in rows)
        compared = [r for r in rows if r[4] is not None]
        print(
            f"== N={n}: {len(rows)} events, median {statistics.median(medians):.1f} ms "
            f"(max {medians[-1]:.1f}), certified {sum(r[1].certified for r in rows)}/{len(rows)}, "
            f"B-L at the bounds {sum(r[3] for r in rows)}/{len(rows)}, L above the bound and "
            f"proven least {sum(r[6] is True for r in rows)}/{sum(r[6] is not None for r in rows)}, "
            "equal to exact "
            f"{sum(r[4] for r in compared)}/{len(compared)}"
            + (f" (exact median {statistics.median(r[5] for r in compared):.1f} s)" if compared else ""),
            flush=True,
        )  # fmt: skip


if __name__ == "__main__":
    main()

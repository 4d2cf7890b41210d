"""What one call to Redis and one round trip to PostgreSQL cost the calling process in CPU
on this machine (issue 16, bench/RESULTS.md fourteenth round): an EVALSHA of a trivial
script with an argument of several sizes, and `SELECT 1`. Prints the CPU (process time)
and the wall time per call, the median of --runs runs of --calls calls each. Then what
binding a drain's write text of 94 parameters costs (fifteenth round): psycopg's own
client-side binding (`mogrify`, which parses a text of more than 50 parameters anew each
time) against the drain's (`matches.fetch._bound`), no server involved.

    .venv/bin/python bench/call_cost.py [--redis redis://127.0.0.1:6379/0]
        [--postgres postgresql://postgres@127.0.0.1:5432/postgres] [--calls 2000] [--runs 3]
"""

import argparse
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import redis
from psycopg.types.json import Jsonb

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from matches.fetch import _bound  # noqa: E402


def per_call(fn, calls: int) -> tuple[float, float]:
    for _ in range(50):  # warm up
        fn()
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.process_time() - cpu) / calls * 1e6, (time.perf_counter() - wall) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    script = redis.Redis.from_url(args.redis).register_script("return 1")
    cases = {f"redis EVALSHA, {size:>6} bytes": (lambda a=b"x" * size: script(keys=[], args=[a]))
             for size in (10, 1_000, 10_000, 50_000)}  # fmt: skip
    cursor = psycopg.connect(args.postgres, autocommit=True).cursor()
    cases["postgres SELECT 1"] = lambda: cursor.execute("SELECT 1").fetchall()
    text, params = _drain_like_text()
    client = psycopg.ClientCursor(cursor.connection)
    cases["bind a drain's text, psycopg's mogrify"] = lambda: client.mogrify(text, params)
    cases["bind a drain's text, fetch._bound"] = lambda: _bound(cursor.connection, text, params)
    for name, fn in cases.items():
        runs = [per_call(fn, args.calls) for _ in range(args.runs)]
        cpu = statistics.median(r[0] for r in runs)
        wall = statistics.median(r[1] for r in runs)
        print(f"{name}: CPU {cpu:.0f} µs, wall {wall:.0f} µs per call (median of {args.runs})")


def _drain_like_text() -> tuple[str, list]:
    """A text shaped as a drain's one-round-trip write (matches/services/draining.py): the lock, the
    check, the move's INSERT (12 values), 15 events (4 each), the position (15), a bank (2)."""
    event = Jsonb({"kind": "move", "data": {"card": {"face_down": True, "owner": 1},
                   "from": "centre", "to": "colony", "why": "mulligan"}, "to": [1]})  # fmt: skip
    now = datetime.now(UTC)
    statements = [
        ("kgk_a", [1]),
        ("kgk_b", [1, 1, now, 1]),
        ("kgk_c", [1, 1, "client", "b1", 1, "mulligan", "applied", "", "", now, 2, None]),
        ("kgk_d", [v for seq in range(15) for v in (1, 29 + seq, 2, event)]),
        (
            "kgk_e",
            [
                2,
                43,
                0,
                "respond",
                Jsonb(["pass"]),
                "active",
                Jsonb([]),
                None,
                "",
                "",
                None,
                now,
                now,
                now,
                1,
            ],
        ),  # fmt: skip
        ("kgk_f", [599.99, 2]),
    ]
    texts = [f"EXECUTE {name}({', '.join(['%s'] * len(values))})" for name, values in statements]
    params = [value for _name, values in statements for value in values]
    return ";\n".join(["BEGIN", *texts, "COMMIT"]), params


if __name__ == "__main__":
    main()

"""What one call to Redis and one round trip to PostgreSQL cost the calling process in CPU
on this machine (issue 16, bench/RESULTS.md fourteenth round): an EVALSHA of a trivial
script with an argument of several sizes, and `SELECT 1`. Prints the CPU (process time)
and the wall time per call, the median of --runs runs of --calls calls each.

    .venv/bin/python bench/call_cost.py [--redis redis://127.0.0.1:6379/0]
        [--postgres postgresql://postgres@127.0.0.1:5432/postgres] [--calls 2000] [--runs 3]
"""

import argparse
import statistics
import time

import psycopg
import redis


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
    for name, fn in cases.items():
        runs = [per_call(fn, args.calls) for _ in range(args.runs)]
        cpu = statistics.median(r[0] for r in runs)
        wall = statistics.median(r[1] for r in runs)
        print(f"{name}: CPU {cpu:.0f} µs, wall {wall:.0f} µs per call (median of {args.runs})")


if __name__ == "__main__":
    main()

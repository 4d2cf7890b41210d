"""Search and validate under 20 concurrent clients, through a real server (issue 11).

A uvicorn server (cardgame.asgi, 2 worker processes, pooled PostgreSQL connections) on the
bench's own database `kgk_load` (dropped, recreated, migrated, the card set loaded). 20
client threads, each with its own keep-alive-less HTTP requests, send for `--seconds`:
  search    GET /api/cards/?q=...   (the queries of bench/search_latency.py)
  validate  POST /api/decks/validate/ with a 45-card colony
Per endpoint: requests, errors (any status but 200), throughput, p50 / p95. `--runs` runs;
the medians of the runs are printed as a Markdown table for bench/RESULTS.md. `--port`
sets the server's port (default: a free one); the rate limits are lifted (benchdb).
`--built-answers` has the server build every search answer instead of giving a repeated
query's kept one again (cards_data/answers.py): the 36 queries repeat, a real site's less.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kgk .venv/bin/python bench/load_concurrency.py
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from benchdb import BENCH_RATES, bench_url, percentile, recreate_database  # noqa: E402
from live_kit import LiveSite, prepare, site_env  # noqa: E402
from search_latency import QUERIES  # noqa: E402


def colony() -> list[dict]:
    from engine.colonies import build_colony, load_cards

    counts: dict[str, int] = {}
    for card in build_colony(load_cards(), ["xeno", "insectoid", "zarg", "space_shark"]):
        counts[card["code"]] = counts.get(card["code"], 0) + 1
    return [{"code": code, "count": n} for code, n in sorted(counts.items())]


def one_request(url, body=None) -> tuple[int, float]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    except OSError:
        status = 0  # refused, reset, timed out
    return status, (time.perf_counter() - start) * 1000


def run_load(site, clients: int, seconds: float) -> dict:
    deck = {"cards": colony(), "ruleset": "original"}
    queries = [urllib.parse.urlencode(params) for _label, params in QUERIES]
    results = {"search": [], "validate": []}
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client(index):
        n = index
        while time.monotonic() < stop:
            n += 1
            if n % 2:
                kind, outcome = (
                    "search",
                    one_request(f"{site.url}/api/cards/?{queries[n % len(queries)]}"),
                )
            else:
                kind, outcome = "validate", one_request(f"{site.url}/api/decks/validate/", deck)
            with lock:
                results[kind].append(outcome)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    summary = {}
    for kind, outcomes in results.items():
        times = sorted(ms for _status, ms in outcomes)
        summary[kind] = {
            "requests": len(outcomes),
            "errors": sum(1 for status, _ms in outcomes if status != 200),
            "per_s": len(outcomes) / seconds,
            "p50": percentile(times, 0.50),
            "p95": percentile(times, 0.95),
        }
    return summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--db", default="kgk_load")
    parser.add_argument("--port", type=int, help="the server's port (default: a free one)")
    parser.add_argument(
        "--built-answers",
        action="store_true",
        help="the server builds every search answer (KGK_KEEP_SEARCH_ANSWERS=false); by "
        "default it gives a repeated query's kept answer again (cards_data/answers.py)",
    )
    args = parser.parse_args()
    url = bench_url(
        os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kgk"), args.db
    )
    recreate_database(url)
    keep = "false" if args.built_answers else "true"
    env = site_env(url, DATABASE_POOL="1", KGK_KEEP_SEARCH_ANSWERS=keep, **BENCH_RATES)
    prepare(env, ["load"], migrate=True)
    runs = []
    with (
        tempfile.TemporaryDirectory() as logs,
        LiveSite(env, Path(logs), workers=2, port=args.port) as site,
    ):
        run_load(site, args.clients, 5)  # warm-up: caches, pools, first imports
        for number in range(args.runs):
            runs.append(run_load(site, args.clients, args.seconds))
            print(f"run {number + 1}: {json.dumps(runs[-1])}", flush=True)
    print(f"\n{args.clients} clients, {args.seconds:.0f} s per run, median of {args.runs} runs:\n")
    print("| endpoint | requests/run | errors | req/s | p50 ms | p95 ms |")
    print("|---|---|---|---|---|---|")
    for kind in ("search", "validate"):
        med = {k: statistics.median(run[kind][k] for run in runs) for k in runs[0][kind]}
        errors = sum(run[kind]["errors"] for run in runs)
        print(f"| {kind} | {med['requests']:.0f} | {errors} | {med['per_s']:.1f} "
              f"| {med['p50']:.1f} | {med['p95']:.1f} |")  # fmt: skip


if __name__ == "__main__":
    main()

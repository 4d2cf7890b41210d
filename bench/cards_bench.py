"""The card page: GET /<lang>/cards/<code>/ (issue 40), p50/p95 on PostgreSQL.

A card's face, its facts, rules text in both languages, its rulings (docs/rulings.md) and
up to six related cards (cards_data.selectors.related_cards: same race and subtype, or a
shared keyword). Requests go through Django's test Client in process (routing,
middleware, sessions, the view, the database round trips, templates), no HTTP server and
no network. Each run asks the cards of CARDS in turn: ships with keywords, cards with
rulings, an armament, an event and a base.

Two catalogues, one after the other, in the bench's own database:
  real   the first-edition set, loaded with cards_data.loader.load_cards()
  100k   the same topped up to 100,000 cards with bench/search_latency.py's builder
         (related_cards' OR over the keyword join is what a large table would slow)

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kgk .venv/bin/python bench/cards_bench.py

The server of DATABASE_URL is used with its own database `kgk_bench_cards` (--db), dropped
and recreated, so dev data is never touched. Options: --runs, --requests, --warmup,
--lang hu|en (Hungarian by default), --only real|100k, --size, --gc-freeze, --profile
(cProfile of the card page, into bench/out/cards_page_profile.txt).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings
from datetime import UTC, datetime
from pathlib import Path

import benchdb
from benchdb import bench_url, count_queries, recreate_database, timed_runs

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/kgk"
sys.path.insert(0, str(ROOT))

warnings.filterwarnings("ignore", message="No directory at")  # staticfiles/ before collectstatic
GOAL_P95_MS = 15.0  # issue 40

# (code, why it is here): the page's variety of content
CARDS = [
    ("KG1-001", "ship with a keyword (formation)"),
    ("KG1-043", "crew with rulings"),
    ("KG1-093", "ship with a keyword (repair)"),
    ("KG1-020", "base with rulings"),
    ("KG1-026", "interrupt with rulings"),
    ("KG1-013", "armament with a bonus"),
    ("KG1-057", "event"),
]


def bench_page(runs: int, requests: int, warmup: int, gc_freeze: bool, lang: str) -> dict:
    from django.test import Client

    client = Client()
    urls = [f"/{lang}/cards/{code}/" for code, _ in CARDS]

    def request(number: int) -> float:
        url = urls[number % len(urls)]
        started = time.perf_counter()
        response = client.get(url)
        elapsed = (time.perf_counter() - started) * 1000
        if response.status_code != 200:
            raise SystemExit(f"card page {url}: HTTP {response.status_code}")
        return elapsed

    result = timed_runs(request, runs, requests, warmup, gc_freeze)
    result["cards"] = {}
    for (code, why), url in zip(CARDS, urls, strict=True):
        content = client.get(url).content
        result["cards"][code] = {
            "why": why,
            "queries": count_queries(lambda url=url: client.get(url)),
            "bytes": len(content),
            "related": content.count(b'class="card-face') - 1,  # less the card's own
        }
    return result


def profile_page(lang: str) -> str:
    """cProfile of 100 card-page requests: the top functions by cumulative time."""
    import cProfile
    import io
    import pstats

    from django.test import Client

    client = Client()
    profiler = cProfile.Profile()
    profiler.enable()
    for number in range(100):
        client.get(f"/{lang}/cards/{CARDS[number % len(CARDS)][0]}/")
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(40)
    return out.getvalue()


def machine() -> dict:
    import platform

    import django
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        postgresql = cursor.fetchone()[0]
    return {
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "django": django.get_version(),
        "postgresql": postgresql,
        "load": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def report(name: str, catalogue: int, result: dict) -> list[str]:
    verdict = "met" if result["p95"] <= GOAL_P95_MS else "MISSED"
    lines = [
        f"card page [{name}, {catalogue:,} cards]: p50 {result['p50']:.2f} ms  "
        f"p95 {result['p95']:.2f} ms  goal p95 <= {GOAL_P95_MS:g} ms: {verdict}"
    ]
    for code, row in result["cards"].items():
        lines.append(
            f"    {code} {row['why']}: {row['queries']} queries, {row['bytes']:,} bytes, "
            f"{row['related']} related"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--db", default=os.environ.get("KGK_BENCH_CARDS_DB", "kgk_bench_cards"))
    parser.add_argument("--runs", type=int, default=5, help="runs; figures are their median")
    parser.add_argument("--requests", type=int, default=200, help="requests per run")
    parser.add_argument("--warmup", type=int, default=30, help="unmeasured requests first")
    parser.add_argument("--lang", default="hu", choices=["hu", "en"])
    parser.add_argument("--only", choices=["real", "100k"])
    parser.add_argument("--size", type=int, default=100_000, help="cards of the large catalogue")
    parser.add_argument("--gc-freeze", action="store_true", help="gc.freeze() after warm-up")
    parser.add_argument("--profile", action="store_true", help="cProfile the card page")
    args = parser.parse_args()

    OUT.mkdir(parents=True, exist_ok=True)
    url = bench_url(os.environ.get("DATABASE_URL", DEFAULT_URL), args.db)
    print(f"bench database: {url}", flush=True)
    recreate_database(url)
    benchdb.setup_django(url)
    from search_latency import build_synthetic, load_real_set  # after Django's setup

    results: dict = {"args": vars(args)}
    lines: list[str] = []
    catalogue = load_real_set()
    benchdb.vacuum_analyze()
    results["machine"] = machine()
    print(f"machine: {json.dumps(results['machine'], ensure_ascii=False)}", flush=True)
    if args.only in (None, "real"):
        print(f"GET /{args.lang}/cards/<code>/ [real, {catalogue} cards]", flush=True)
        results["real"] = bench_page(
            args.runs, args.requests, args.warmup, args.gc_freeze, args.lang
        )
        lines += report("real", catalogue, results["real"])
        if args.profile:
            profile = profile_page(args.lang)
            (OUT / "cards_page_profile.txt").write_text(profile, encoding="utf-8")
            print(profile)
    if args.only in (None, "100k"):
        print(f"building the {args.size:,}-card catalogue", flush=True)
        catalogue = build_synthetic(args.size)
        benchdb.vacuum_analyze()
        print(f"GET /{args.lang}/cards/<code>/ [100k, {catalogue:,} cards]", flush=True)
        results["100k"] = bench_page(
            args.runs, args.requests, args.warmup, args.gc_freeze, args.lang
        )
        lines += report("100k", catalogue, results["100k"])

    print("\n" + "\n".join(lines))
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    (OUT / f"cards-{stamp}.json").write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()

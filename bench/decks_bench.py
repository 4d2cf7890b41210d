"""Deck benchmarks: the R 9 validator, the validate API and the deck page.

  (1) engine.deck.check_deck: decks per second on one core, over a mix of legal and
      illegal 45-card decks built from the real first-edition set (no Django, no database)
  (2) POST /api/decks/validate/ with a 45-card deck: p50/p95 on PostgreSQL
  (3) GET /<lang>/decks/<pk>/: the deck page with its statistics, charts, draw odds and
      legality for a 45-card deck: p50/p95 on PostgreSQL

(2) and (3) go through Django's test Client in process (routing, middleware, sessions,
the view, the database round trips, templates), no HTTP server and no network.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kgk .venv/bin/python bench/decks_bench.py

The server of DATABASE_URL is used with its own database `kgk_bench_decks` (--db), dropped
and recreated, so dev data is never touched. Options: --runs, --requests, --seconds,
--only check|api|page, --gc-freeze, --cpu (the core to pin to), --profile.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
import warnings
from datetime import UTC, datetime
from pathlib import Path

import benchdb
from benchdb import bench_url, count_queries, recreate_database, timed_runs

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
SET_DIR = ROOT / "cards_data" / "sets" / "first"
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/kgk"
sys.path.insert(0, str(ROOT))

warnings.filterwarnings("ignore", message="No directory at")  # staticfiles/ before collectstatic
# decks/s; p95 ms; p95 ms (the deck page: issue 40 on the reference machine); p95 ms
GOALS = {"check": 20_000, "api": 30.0, "page": 15.0, "builder": 150.0}


# ----------------------------------------------------------------------------- decks


def real_cards() -> list[dict]:
    return [
        card
        for path in sorted(SET_DIR.glob("*.json"))
        for card in json.loads(path.read_text(encoding="utf-8"))["cards"]
    ]


def legal_races(rng: random.Random) -> list[str]:
    """Four races, one of each opposing pair (R 7.1, R 9.3)."""
    from engine.catalog import RACE_PAIRS

    return [rng.choice(pair) for pair in RACE_PAIRS]


def build_colony(rng: random.Random, by_race: dict[str, list[dict]], races, total=45):
    """(card, count) pairs: random cards of `races`, 1–3 copies each, `total` cards."""
    pool = [card for race in races for card in by_race[race]]
    rng.shuffle(pool)
    entries, size = [], 0
    for card in pool:
        if size >= total:
            break
        count = min(rng.randint(1, 3), total - size)
        entries.append((card, count))
        size += count
    return entries


def deck_mix(count: int, seed: int = 20241122) -> list[tuple[str, list]]:
    """(kind, deck) pairs: half legal, half broken in one or several ways (R 9.1–9.3, 9.7)."""
    rng = random.Random(seed)
    cards = real_cards()
    by_race: dict[str, list[dict]] = {}
    for card in cards:
        by_race.setdefault(card["race"], []).append(card)
    kinds = ["legal"] * 5 + ["size", "copies", "opposing", "unknown", "several"]
    decks = []
    for number in range(count):
        kind = kinds[number % len(kinds)]
        races = legal_races(rng)
        deck = build_colony(rng, by_race, races)
        if kind == "size":
            deck = build_colony(rng, by_race, races, total=rng.choice([44, 46]))
        elif kind == "copies":
            card, _ = deck[0]
            deck = [(card, 4)] + build_colony(rng, by_race, races, total=41)
        elif kind == "opposing":
            from engine.catalog import OPPOSING_RACE

            deck = build_colony(rng, by_race, races, total=44)
            intruder = rng.choice(by_race[OPPOSING_RACE[deck[0][0]["race"]]])
            deck.append((intruder, 1))
        elif kind == "unknown":
            deck = build_colony(rng, by_race, races, total=43) + [("KG1-999", 2)]
        elif kind == "several":
            five = races + [rng.choice([r for r in by_race if r not in races])]
            deck = build_colony(rng, by_race, five, total=40) + [(deck[0][0], 5), ("nope", 1)]
        decks.append((kind, deck))
    return decks


# ----------------------------------------------------------------------------- (1) check_deck


def bench_check(runs: int, seconds: float, cpu: int | None) -> dict:
    from engine.deck import check_deck

    if cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})
    decks = [deck for _, deck in deck_mix(1000)]
    legal = sum(1 for deck in decks if not check_deck(deck))
    for deck in decks:  # warm-up
        check_deck(deck)
    rates = []
    for run in range(runs):
        done, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds:
            for deck in decks:
                check_deck(deck)
            done += len(decks)
        elapsed = time.perf_counter() - started
        rates.append(done / elapsed)
        print(f"  run {run + 1}/{runs}: {rates[-1]:,.0f} decks/s ({done:,} in {elapsed:.2f} s)")
    return {
        "decks": len(decks),
        "legal": legal,
        "rate": statistics.median(rates),
        "runs": rates,
        "per_deck_us": 1e6 / statistics.median(rates),
    }


# ----------------------------------------------------------------------------- database


def setup_django(url: str) -> None:
    """The shared setup plus the real card set."""
    benchdb.setup_django(url)
    from cards_data.loader import load_cards

    load_cards()
    benchdb.vacuum_analyze()


def validate_payloads(count: int = 200) -> list[dict]:
    payloads = []
    for kind, deck in deck_mix(count, seed=7):
        cards = [
            {"code": card["code"] if isinstance(card, dict) else card, "count": n}
            for card, n in deck
        ]
        payloads.append({"kind": kind, "body": json.dumps({"cards": cards})})
    return payloads


def bench_api(runs: int, requests: int, warmup: int, gc_freeze: bool) -> dict:
    from django.test import Client

    client = Client()
    payloads = validate_payloads()
    position = {"i": 0}

    def request(_number: int = 0) -> float:
        payload = payloads[position["i"] % len(payloads)]
        position["i"] += 1
        started = time.perf_counter()
        response = client.post(
            "/api/decks/validate/", payload["body"], content_type="application/json"
        )
        elapsed = (time.perf_counter() - started) * 1000
        if response.status_code != 200:
            raise SystemExit(f"validate: HTTP {response.status_code} {response.content[:300]!r}")
        legal = response.json()["legal"]
        if legal != (payload["kind"] == "legal"):
            raise SystemExit(f"validate: {payload['kind']} deck answered legal={legal}")
        return elapsed

    result = timed_runs(request, runs, requests, warmup, gc_freeze)
    result["queries"] = count_queries(
        lambda: client.post(
            "/api/decks/validate/", payloads[0]["body"], content_type="application/json"
        )
    )
    return result


# ----------------------------------------------------------------------------- (3) deck page


def make_page_deck():
    """A public 45-card legal deck of real cards of four races, all six types, saved twice."""
    from django.contrib.auth.models import User

    from cards_data.models import Card
    from decks import services

    owner, _ = User.objects.get_or_create(username="bench")
    rng = random.Random(3)
    races = ["xeno", "insectoid", "zarg", "space_shark"]  # Laci's races, R 20 EX-1
    pool = list(Card.objects.filter(race__in=races).order_by("code"))
    rng.shuffle(pool)
    entries, size = [], 0
    for card in pool:
        if size == 45:
            break
        count = min(rng.choice([1, 2, 3, 3]), 45 - size)
        entries.append((card.code, count))
        size += count
    deck = services.save_deck(
        owner, name="Bench colony", cards=entries[:-1] + [(entries[-1][0], 1)]
    )
    deck = services.save_deck(owner, deck=deck, name="Bench colony", cards=entries, is_public=True)
    return deck, len(entries)


PAGE_VARIANTS = [
    ("plain", {}),
    ("match query", {"match": "t:ship cost<=4"}),
    ("sample hand", {"hand": "c0ffee"}),
]


def bench_page(runs: int, requests: int, warmup: int, gc_freeze: bool, lang: str) -> dict:
    from django.test import Client

    deck, distinct = make_page_deck()
    client = Client()
    url = f"/{lang}/decks/{deck.pk}/"
    results = {"deck": {"pk": deck.pk, "cards": 45, "distinct": distinct}}
    for label, params in PAGE_VARIANTS:

        def request(_number: int = 0, params=params) -> float:
            started = time.perf_counter()
            response = client.get(url, params)
            elapsed = (time.perf_counter() - started) * 1000
            if response.status_code != 200:
                raise SystemExit(f"page: HTTP {response.status_code}")
            return elapsed

        print(f"  [{label}] GET {url} {params or ''}", flush=True)
        results[label] = timed_runs(request, runs, requests, warmup, gc_freeze)
        results[label]["queries"] = count_queries(lambda params=params: client.get(url, params))
        results[label]["bytes"] = len(client.get(url, params).content)
    return results


def bench_builder(runs: int, requests: int, warmup: int, gc_freeze: bool, lang: str) -> dict:
    """The builder page of the same 45-card deck, logged in as its owner, with its charts."""
    from django.test import Client

    from decks.models import Deck

    deck = Deck.objects.get(name="Bench colony")
    client = Client()
    client.force_login(deck.owner)
    url = f"/{lang}/decks/{deck.pk}/edit/"

    def request(_number: int = 0) -> float:
        started = time.perf_counter()
        response = client.get(url)
        elapsed = (time.perf_counter() - started) * 1000
        if response.status_code != 200 or b'class="deck-stats"' not in response.content:
            raise SystemExit(f"builder: HTTP {response.status_code} or no charts")
        return elapsed

    print(f"  [builder] GET {url}", flush=True)
    result = timed_runs(request, runs, requests, warmup, gc_freeze)
    result["queries"] = count_queries(lambda: client.get(url))
    return result


def profile_page(lang: str) -> str:
    """cProfile of 50 deck-page requests: the top functions by cumulative time."""
    import cProfile
    import io
    import pstats

    from django.test import Client

    from decks.models import Deck

    deck = Deck.objects.get(name="Bench colony")
    client = Client()
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(50):
        client.get(f"/{lang}/decks/{deck.pk}/", {"match": "t:ship cost<=4"})
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(30)
    return out.getvalue()


# ----------------------------------------------------------------------------- report


def machine() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    info = {"nproc": os.cpu_count(), "cpu": cpu, "python": platform.python_version()}
    try:
        import django
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            info["postgresql"] = cursor.fetchone()[0]
        info["django"] = django.get_version()
    except Exception:  # (1) alone runs without Django
        pass
    info["date"] = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return info


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--db", default=os.environ.get("KGK_BENCH_DECKS_DB", "kgk_bench_decks"))
    parser.add_argument("--runs", type=int, default=5, help="runs; figures are their median")
    parser.add_argument("--requests", type=int, default=200, help="requests per run")
    parser.add_argument("--warmup", type=int, default=30, help="unmeasured requests first")
    parser.add_argument("--seconds", type=float, default=2.0, help="(1): length of a run")
    parser.add_argument("--cpu", type=int, default=0, help="(1): pin to this core (-1: no pin)")
    parser.add_argument("--lang", default="hu", choices=["hu", "en"])
    parser.add_argument("--only", choices=["check", "api", "page"])
    parser.add_argument("--gc-freeze", action="store_true", help="gc.freeze() after warm-up")
    parser.add_argument("--profile", action="store_true", help="cProfile the deck page")
    args = parser.parse_args()

    OUT.mkdir(parents=True, exist_ok=True)
    results: dict = {"args": vars(args)}
    lines = []
    if args.only in (None, "check"):
        print("(1) engine.deck.check_deck, one core", flush=True)
        check = bench_check(args.runs, args.seconds, None if args.cpu < 0 else args.cpu)
        results["check"] = check
        verdict = "met" if check["rate"] >= GOALS["check"] else "MISSED"
        lines.append(
            f"(1) check_deck: {check['rate']:,.0f} decks/s ({check['per_deck_us']:.1f} µs/deck; "
            f"{check['decks']} decks, {check['legal']} legal) goal >= {GOALS['check']:,}: {verdict}"
        )
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))

    if args.only in (None, "api", "page"):
        url = bench_url(os.environ.get("DATABASE_URL", DEFAULT_URL), args.db)
        print(f"bench database: {url}", flush=True)
        recreate_database(url)
        setup_django(url)
    results["machine"] = machine()
    print(f"machine: {json.dumps(results['machine'], ensure_ascii=False)}", flush=True)

    if args.only in (None, "api"):
        print("(2) POST /api/decks/validate/", flush=True)
        api = bench_api(args.runs, args.requests, args.warmup, args.gc_freeze)
        results["api"] = api
        verdict = "met" if api["p95"] <= GOALS["api"] else "MISSED"
        lines.append(
            f"(2) validate API: p50 {api['p50']:.2f} ms  p95 {api['p95']:.2f} ms "
            f"({api['queries']} queries) goal p95 <= {GOALS['api']:g} ms: {verdict}"
        )

    if args.only in (None, "page"):
        print(f"(3) GET /{args.lang}/decks/<pk>/", flush=True)
        page = bench_page(args.runs, args.requests, args.warmup, args.gc_freeze, args.lang)
        results["page"] = page
        for label, _ in PAGE_VARIANTS:
            row = page[label]
            verdict = "met" if row["p95"] <= GOALS["page"] else "MISSED"
            lines.append(
                f"(3) deck page [{label}]: p50 {row['p50']:.2f} ms  p95 {row['p95']:.2f} ms "
                f"({row['queries']} queries, {row['bytes']:,} bytes) "
                f"goal p95 <= {GOALS['page']:g} ms: {verdict}"
            )
        builder = bench_builder(args.runs, args.requests, args.warmup, args.gc_freeze, args.lang)
        results["builder"] = builder
        verdict = "met" if builder["p95"] <= GOALS["builder"] else "MISSED"
        lines.append(
            f"(3) builder page with charts: p50 {builder['p50']:.2f} ms  p95 {builder['p95']:.2f} ms "
            f"({builder['queries']} queries) goal p95 <= {GOALS['builder']:g} ms: {verdict}"
        )
        if args.profile:
            report = profile_page(args.lang)
            (OUT / "decks_page_profile.txt").write_text(report, encoding="utf-8")
            print(report)

    print("\n" + "\n".join(lines))
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    (OUT / f"decks-{stamp}.json").write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()

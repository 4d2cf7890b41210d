"""Latency of the search API (`GET /api/cards/?q=...`) on PostgreSQL: p50/p95.

Two configurations, one after the other in the bench's own database (never the dev one):
  real   the first-edition set, loaded with cards_data.loader.load_cards()
  100k   100,000 cards: the real set topped up with synthetic cards built from it

Requests go through Django's test Client: in process, request -> response, so a figure
includes URL routing, middleware, filtering (the search language), DRF serialisation
and the database round trips, but no HTTP server and no network.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kgk .venv/bin/python bench/search_latency.py

The server of DATABASE_URL is used with the database name `kgk_bench` (--db), which is
dropped and recreated. Options: --runs, --rounds, --size, --only real|100k,
--no-gc-freeze (the server freezes its start-up objects; the bench does as it after the
warm-up unless told not to), --explain (EXPLAIN ANALYZE of the slowest queries' SQL into bench/out/explain.txt).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

from benchdb import bench_url, percentile, recreate_database, setup_django, vacuum_analyze

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/kgk"

# ~30 realistic queries: (label, GET params of /api/cards/)
QUERIES: list[tuple[str, dict]] = [
    ("type+race", {"q": "t:ship r:zarg"}),
    ("type+race+cost", {"q": "t:ship r:zarg cost<=3"}),
    ("hu fields", {"q": "t:űrhajó faj:zarg"}),
    ("hu fields, folded", {"q": "t:urhajo r:urcapa"}),
    ("stats", {"q": "t:ship spd>=4 fp>=3"}),
    ("cost range", {"q": "cost>=2 cost<=4"}),
    ("negation", {"q": "-r:ember"}),
    ("double negation", {"q": "-t:ship -t:event"}),
    ("or", {"q": "r:human or r:xeno"}),
    ("keyword or, parens", {"q": "(kw:burst_fire or kw:formation) cost<8"}),
    ("keyword", {"q": "kw:cloak"}),
    ("not keyword", {"q": "t:ship -kw:cloak size>=3"}),
    ("quoted name", {"q": '"Cobra Flash"'}),
    ("quoted phrase", {"q": '"target deflector"'}),
    ("bare word hu", {"q": "Halálszárny"}),
    ("bare word folded", {"q": "halalszarny"}),
    ("bare word en", {"q": "shield"}),
    ("two bare words", {"q": "enemy ship"}),
    ("name:", {"q": "name:cobra"}),
    ("név:", {"q": "név:halálszárny"}),
    ("text: phrase", {"q": 'text:"burst fire"'}),
    ("szöveg:", {"q": "szöveg:hajó"}),
    ("word + filters", {"q": "t:armament damage"}),
    ("subtype", {"q": "st:scout spd>=3"}),
    ("rarity or", {"q": "rarity:rare or rarity:ultra_rare"}),
    ("upgrade limit X", {"q": "ul:x"}),
    ("base ul", {"q": "t:base ul>=2"}),
    ("clan", {"q": "clan:galactic_trade"}),
    ("cost != and bmb", {"q": "cost!=3 bmb>0"}),
    ("edition+type", {"q": "e:first t:crew"}),
    ("no match", {"q": "xyzzyplugh"}),
    ("facets race+type", {"race": "zarg", "type": "ship"}),
    ("facet keyword+speed", {"keyword": "burst_fire", "speed_min": "3"}),
    ("facet rarity+cost", {"rarity": "rare", "credit_cost_min": "2", "credit_cost_max": "5"}),
    ("q + sort", {"q": "t:ship", "sort": "-cost"}),
    ("everything, page 2", {"page": "2"}),
]


# ----------------------------------------------------------------------------- setup


# ----------------------------------------------------------------------------- data


SUFFIXES = ["Mk II", "Mk III", "Prime", "Alfa", "Béta", "Gamma", "Delta", "Omega", "Nova",
            "Vörös", "Fekete", "Ezüst", "Arany", "Éjféli", "Hajnal", "Vihar", "Rém", "Ős",
            "Kis", "Nagy"]  # fmt: skip


def load_real_set():
    from cards_data.loader import load_cards

    report = load_cards()
    return len(report.created) + len(report.updated) + report.unchanged


def build_synthetic(total: int, seed: int = 20240501, batch: int = 5000) -> int:
    """Top the catalogue up to `total` cards with variations of the real ones."""
    from cards_data import stamp
    from cards_data.models import Card, Keyword
    from cards_data.search.normalize import fold
    from engine import catalog

    rng = random.Random(seed)
    real = list(Card.objects.order_by("code"))
    keyword_ids = list(Keyword.objects.values_list("id", flat=True))
    races = list(catalog.RACES)
    clans = [""] * 6 + list(catalog.CLANS)
    rarities = ["common"] * 5 + ["uncommon"] * 3 + ["rare"] * 2 + ["ultra_rare"]
    through = Card.keywords.through
    missing = total - len(real)
    made, started = 0, time.perf_counter()

    def vary(value, spread=2):
        if value is None:
            return None
        return max(0, value + rng.randint(-spread, spread))

    while made < missing:
        rows = []
        for _ in range(min(batch, missing - made)):
            number = made + len(rows) + 1
            base = rng.choice(real)
            other = rng.choice(real)  # a second card's text, so texts vary too
            suffix = f"{rng.choice(SUFFIXES)} {number}"
            name, name_en = f"{base.name} {suffix}", f"{base.name_en} {suffix}"
            text_hu = base.text_hu if rng.random() < 0.6 else other.text_hu
            text_en = base.text_en if text_hu == base.text_hu else other.text_en
            flavor_hu, flavor_en = base.flavor_hu, base.flavor_en
            cost = vary(base.credit_cost, 3)
            race = rng.choice(races) if base.race else ""
            rows.append(
                Card(
                    code=f"SYN-{number:06d}",
                    name=name,
                    name_en=name_en,
                    race=race,
                    type=base.type,
                    subtype=base.subtype,
                    rarity=rng.choice(rarities),
                    clan=rng.choice(clans) if base.clan or rng.random() < 0.1 else "",
                    edition_id=base.edition_id,
                    credit_cost=cost,
                    cost_kind=base.cost_kind if cost is None else "",
                    speed=vary(base.speed),
                    firepower=vary(base.firepower),
                    armour=vary(base.armour),
                    bombardment=vary(base.bombardment),
                    size=base.size,
                    hangar_size=base.hangar_size,
                    upgrade_limit=base.upgrade_limit,
                    upgrade_limit_value=base.upgrade_limit_value,
                    bonus_speed=base.bonus_speed,
                    bonus_firepower=base.bonus_firepower,
                    bonus_armour=base.bonus_armour,
                    bonus_bombardment=base.bonus_bombardment,
                    abilities=base.abilities,
                    # the engine's definition (cards_data/definitions.py): the base card's,
                    # named and raced as this one (its varied numbers are for search only)
                    definition={
                        **base.definition,
                        "code": f"SYN-{number:06d}",
                        "name": name,
                        "name_en": name_en,
                        "race": race or base.definition.get("race"),
                    },
                    text_hu=text_hu,
                    text_en=text_en,
                    flavor_hu=flavor_hu,
                    flavor_en=flavor_en,
                    # exactly as cards_data/loader.py card_fields() stores them
                    search_name=fold(f"{name} {name_en}"),
                    search_text=fold(f"{text_hu} {text_en} {flavor_hu} {flavor_en}"),
                    source_file="synthetic",
                )
            )
        created = Card.objects.bulk_create(rows)
        links = []
        for card in created:  # a share of the ships get one to three keywords
            if card.type == "ship" and rng.random() < 0.45:
                for keyword_id in rng.sample(keyword_ids, rng.randint(1, 3)):
                    links.append(through(card_id=card.id, keyword_id=keyword_id))
        through.objects.bulk_create(links)
        made += len(rows)
        print(
            f"  built {len(real) + made:>7,}/{total:,} cards "
            f"({time.perf_counter() - started:5.1f} s)",
            flush=True,
        )
    stamp.bump()  # bulk INSERTs send no signals: the catalogue's ETags must change (issue 40)
    return Card.objects.count()


# ----------------------------------------------------------------------------- measuring


def measure(
    rounds: int, runs: int, warmup: int, gc_freeze: bool = False, seed: int = 7, kept=False
) -> dict:
    from django.test import Client

    from cards_data import answers

    client = Client(HTTP_ACCEPT="application/json")
    rng = random.Random(seed)
    counts = {}

    def get(params):
        if not kept:  # every answer built: what a query no one asked before costs
            answers.forget()
        started = time.perf_counter()
        response = client.get("/api/cards/", params)
        elapsed = (time.perf_counter() - started) * 1000
        if response.status_code != 200:
            raise SystemExit(f"{params}: HTTP {response.status_code} {response.content[:300]!r}")
        return elapsed, response

    for _ in range(warmup):
        for label, params in QUERIES:
            _, response = get(params)
            counts[label] = response.json()["count"]
    if gc_freeze:  # what a server doing gc.freeze() after start-up would see
        gc.collect()
        gc.freeze()

    run_summaries, per_query = [], {label: [] for label, _ in QUERIES}
    for run in range(runs):
        samples = []
        for _ in range(rounds):
            order = list(QUERIES)
            rng.shuffle(order)  # no query always follows the same one
            for label, params in order:
                elapsed, _ = get(params)
                samples.append(elapsed)
                per_query[label].append(elapsed)
        summary = {
            "p50": percentile(samples, 0.50),
            "p95": percentile(samples, 0.95),
            "max": max(samples),
            "requests": len(samples),
        }
        run_summaries.append(summary)
        print(
            f"  run {run + 1}/{runs}: p50 {summary['p50']:6.1f} ms  p95 {summary['p95']:6.1f} ms  "
            f"max {summary['max']:6.1f} ms  ({summary['requests']} requests)",
            flush=True,
        )
    if gc_freeze:
        gc.unfreeze()
    return {
        "p50": statistics.median(r["p50"] for r in run_summaries),
        "p95": statistics.median(r["p95"] for r in run_summaries),
        "runs": run_summaries,
        "per_query": {
            label: {
                "count": counts[label],
                "p50": percentile(values, 0.50),
                "p95": percentile(values, 0.95),
            }
            for label, values in per_query.items()
        },
    }


def explain(labels: list[str]) -> str:
    """EXPLAIN (ANALYZE, BUFFERS) of every SQL statement one request of each query runs."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client, out = Client(HTTP_ACCEPT="application/json"), []
    params_by_label = dict(QUERIES)
    for label in labels:
        with CaptureQueriesContext(connection) as captured:
            client.get("/api/cards/", params_by_label[label])
        out.append(f"==== {label}: {params_by_label[label]}")
        for query in captured.captured_queries:
            sql = query["sql"]
            if not sql.lstrip().upper().startswith("SELECT"):
                continue
            with connection.cursor() as cursor:
                cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}")
                plan = "\n".join(row[0] for row in cursor.fetchall())
            out.append(f"-- {query['time']} s\n{sql}\n{plan}\n")
    return "\n".join(out)


def machine() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        pg = cursor.fetchone()[0]
    import django

    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "django": django.get_version(),
        "postgresql": pg,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def report_config(name: str, cards: int, result: dict, goal: float) -> list[str]:
    verdict = "met" if result["p95"] <= goal else "MISSED"
    lines = [
        f"{name}: {cards:,} cards  p50 {result['p50']:.1f} ms  p95 {result['p95']:.1f} ms "
        f"(goal p95 <= {goal:g} ms: {verdict})",
        f"  {'query':<22} {'hits':>7} {'p50 ms':>8} {'p95 ms':>8}",
    ]
    slowest = sorted(result["per_query"].items(), key=lambda kv: -kv[1]["p50"])
    for label, row in slowest:
        lines.append(f"  {label:<22} {row['count']:>7,} {row['p50']:>8.1f} {row['p95']:>8.1f}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--db", default=os.environ.get("KGK_BENCH_DB", "kgk_bench"))
    parser.add_argument("--size", type=int, default=100_000, help="cards in the large catalogue")
    parser.add_argument("--runs", type=int, default=3, help="full runs; figures are their median")
    parser.add_argument("--rounds", type=int, default=5, help="requests per query per run")
    parser.add_argument("--warmup", type=int, default=2, help="unmeasured rounds first")
    parser.add_argument("--only", choices=["real", "100k"], help="one configuration only")
    parser.add_argument(
        "--kept",
        action="store_true",
        help="let the server's kept answers answer repeated queries (cards_data/answers.py); "
        "by default every answer is built, as for a query no one asked before",
    )
    parser.add_argument(
        "--explain", action="store_true", help="EXPLAIN ANALYZE the slowest queries"
    )
    parser.add_argument(
        "--gc-freeze",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="gc.freeze() after the warm-up, as the server does after start-up "
        "(cardgame/asgi.py): no full collections of start-up objects",
    )
    args = parser.parse_args()

    url = bench_url(os.environ.get("DATABASE_URL", DEFAULT_URL), args.db)
    print(f"bench database: {url}", flush=True)
    recreate_database(url)
    setup_django(url)
    info = machine()
    print(f"machine: {json.dumps(info, ensure_ascii=False)}", flush=True)
    print(f"{len(QUERIES)} queries x {args.rounds} rounds x {args.runs} runs per configuration")

    results, lines = {"machine": info, "args": vars(args)}, []
    real_cards = load_real_set()
    vacuum_analyze()
    if args.only in (None, "real"):
        print(f"\n[real] {real_cards} cards", flush=True)
        result = measure(args.rounds, args.runs, args.warmup, args.gc_freeze, kept=args.kept)
        results["real"] = {"cards": real_cards, **result}
        lines += report_config("real", real_cards, result, 10)

    if args.only in (None, "100k"):
        print(f"\n[100k] building a {args.size:,}-card catalogue", flush=True)
        cards = build_synthetic(args.size)
        vacuum_analyze()
        result = measure(args.rounds, args.runs, args.warmup, args.gc_freeze, kept=args.kept)
        results["100k"] = {"cards": cards, **result}
        lines += [""] + report_config(f"{cards:,}", cards, result, 40)
        if args.explain:
            slowest = sorted(result["per_query"], key=lambda k: -result["per_query"][k]["p50"])
            plans = explain(slowest[:6])
            OUT.mkdir(exist_ok=True)
            (OUT / "explain.txt").write_text(plans, encoding="utf-8")
            print(f"\nEXPLAIN ANALYZE of the 6 slowest queries: {OUT / 'explain.txt'}")

    print("\n" + "\n".join(lines))
    OUT.mkdir(exist_ok=True)
    raw = OUT / ("search_latency.json" if args.gc_freeze else "search_latency.no-gc-freeze.json")
    raw.write_text(json.dumps(results, indent=2, ensure_ascii=False))
    print(f"\nraw figures: {raw}")


if __name__ == "__main__":
    main()

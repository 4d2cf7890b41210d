"""What the database benchmarks share: a throwaway PostgreSQL database, Django set up on
it, and the nearest-rank percentile they report."""

import gc
import os
import statistics
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent

# The benches send far more requests than a person: the site's rate limits (settings,
# RATE_*) would answer 429 in the middle of a measurement, so every bench lifts them.
BENCH_RATES = {"RATE_SEARCH": "1000000/min", "RATE_IMPORT": "1000000/min"}


def bench_url(source_url: str, db_name: str) -> str:
    """DATABASE_URL's server with the bench's own database name (never the dev database)."""
    parts = urlsplit(source_url)
    if parts.scheme not in ("postgres", "postgresql", "pgsql"):
        sys.exit(f"DATABASE_URL must be a PostgreSQL URL, not {source_url!r}")
    if parts.path.lstrip("/") == db_name:
        sys.exit(f"the bench database {db_name!r} must not be the DATABASE_URL's database")
    return urlunsplit(parts._replace(path=f"/{db_name}"))


def recreate_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def setup_django(url: str) -> None:
    """Point Django at `url` (before django.setup(): settings read it once) and migrate."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DEBUG", "false")  # no query log, production-like
    os.environ.pop("REDIS_URL", None)
    for name, rate in BENCH_RATES.items():
        os.environ.setdefault(name, rate)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardgame.settings")
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def vacuum_analyze() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def percentile(samples: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(samples)
    rank = max(1, round(fraction * len(ordered) + 0.5 - 1e-9))
    return ordered[min(rank, len(ordered)) - 1]


def timed_runs(request, runs: int, requests: int, warmup: int, gc_freeze: bool) -> dict:
    """`request(number)` -> elapsed ms; p50/p95 per run of `requests`, medians over the runs."""
    for number in range(warmup):
        request(number)
    if gc_freeze:
        gc.collect()
        gc.freeze()
    summaries = []
    for run in range(runs):
        samples = [request(number) for number in range(requests)]
        summary = {
            "p50": percentile(samples, 0.50),
            "p95": percentile(samples, 0.95),
            "max": max(samples),
        }
        summaries.append(summary)
        print(
            f"  run {run + 1}/{runs}: p50 {summary['p50']:6.2f} ms  p95 {summary['p95']:6.2f} ms  "
            f"max {summary['max']:6.1f} ms  ({requests} requests)",
            flush=True,
        )
    if gc_freeze:
        gc.unfreeze()
    return {
        "p50": statistics.median(s["p50"] for s in summaries),
        "p95": statistics.median(s["p95"] for s in summaries),
        "runs": summaries,
    }


def count_queries(call) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured.captured_queries)

"""Time to pair the next Swiss round through the service (issue 14), N = 256 … 16,384.

`services.pair_next_round` does what staff do with one click: the standings from the
database (three queries, the matches as one array a column per round on PostgreSQL, and
`standings.tabulate_columns`, no Row per player), the pairing
(`swiss.pair_round`) and saving the draft (one round, one INSERT of its matches on
PostgreSQL, the audit entry). This bench builds a real event in the database of
DATABASE_URL (use PostgreSQL, as in production): N players entered (bulk inserts; the
decklists are not what is measured), the event started, rounds 1 … R−1 paired by the
service itself, published and given random results (best of one, player a or b wins). Then the last
round is paired `--repeats` times, each inside a transaction rolled back afterwards, and
timed with `time.perf_counter()` around `pair_next_round` only (and its CPU time,
`time.process_time()`: this process's, not PostgreSQL's). Beside it, the pure functions
on the same inputs, in CPU time: `standings()` (every Row), `tabulate_columns().records()`
(what the pairing uses) and `pair_round()`. `--gc-freeze` freezes the collector's objects
before timing, as the web and worker processes do after start-up. `--commit` lets each
call commit (a rolled-back call skips PostgreSQL's deferred foreign-key checks of the
draft's rows, which staff do wait for) and deletes the draft afterwards, untimed.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kgk_bench \\
        .venv/bin/python bench/tournament_service_bench.py --sizes 256,4096,16384 --repeats 5

Every timed draft is checked: each active player exactly once, no rematch, at most one
bye, to a player without one. The database is migrated first; the bench's rows are
deleted at the end.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardgame.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from tournaments import services, standings, swiss  # noqa: E402
from tournaments.models import Registration, Round, TableSet, Tournament  # noqa: E402

GOALS_S = {4096: 0.25, 16384: 1.0}


class Rollback(Exception):
    pass


def build_event(n: int, rng: random.Random) -> tuple[Tournament, object]:
    users = get_user_model()
    prefix = f"bench{n}x{rng.randrange(10**9)}"
    org = users.objects.create(username=f"{prefix}-org", password="!")
    users.objects.bulk_create(
        [users(username=f"{prefix}-{i}", password="!") for i in range(n)], batch_size=2000
    )
    players = users.objects.filter(username__startswith=f"{prefix}-").exclude(pk=org.pk)
    t = services.create_tournament(org, name=f"bench {n}", date=datetime.date(2026, 12, 1))
    Registration.objects.bulk_create(
        [
            Registration(tournament=t, player=u, deck_name="bench", cards=[], checked_in=True)
            for u in players
        ],
        batch_size=2000,
    )
    services.start(t, org)
    t.refresh_from_db()
    return t, org


def play_rounds(t: Tournament, org, rounds: int, rng: random.Random):
    """Rounds 1 … rounds through the service, published, every match decided."""
    for _ in range(rounds):
        rnd = services.pair_next_round(t, org)
        Round.objects.filter(pk=rnd.pk).update(status=Round.PUBLISHED)
        matches = list(rnd.matches.exclude(player_b=None))
        for m in matches:
            m.games_a, m.games_b = (1, 0) if rng.random() < 0.5 else (0, 1)
            m.status = TableSet.CONFIRMED
        TableSet.objects.bulk_update(matches, ["games_a", "games_b", "status"], batch_size=2000)


def fresh_statistics():
    """The event's tables as a real event's are when staff pair the next round: compact and
    analyzed. The bench writes 100,000 results in seconds and times the next pairing at
    once, and deletes its events afterwards (in production matches are never deleted, and
    autovacuum analyzes within a minute or so of a round's results). On the statistics of
    an empty table PostgreSQL sorted the results on disk before grouping them (107 ms
    against 82 ms at 16,384); with the dead rows of the bench's earlier events still in the
    file it read them all (the standings' query at 4,096: 120-220 ms against ~25 ms).
    VACUUM FULL rewrites the tables without them; ANALYZE refreshes the statistics."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            for model in (TableSet, Registration, Round):
                cursor.execute(f"VACUUM FULL ANALYZE {model._meta.db_table}")  # nosec B608


def check(rnd: Round, active: set, records):
    seated = []
    byes = []
    opponents = {r.id: r.opponents for r in records}
    had_bye = {r.id for r in records if r.had_bye}
    for a, b in rnd.matches.values_list("player_a_id", "player_b_id"):
        seated.append(a)
        if b is None:
            byes.append(a)
        else:
            seated.append(b)
            assert b not in opponents[a], f"rematch {a} v {b}"
    assert sorted(seated) == sorted(active), "not every active player once"
    assert len(byes) <= 1 and not (set(byes) & had_bye), "illegal bye"


def timed_service(
    t: Tournament, org, repeats: int, active: set, commit: bool = False
) -> tuple[list[float], list[float]]:
    """Wall and CPU (this process's: not PostgreSQL's) seconds of each pair_next_round.

    By default each call runs inside a transaction that is rolled back, so PostgreSQL's
    deferred foreign-key checks of the draft's rows (Django makes them INITIALLY
    DEFERRED) never run. With `commit`, pair_next_round commits as it does for staff and
    the timing includes the commit; the draft is deleted afterwards, untimed."""
    times, cpu = [], []
    records = standings.player_records(services.current_standings(t))
    if commit:
        for _ in range(repeats):
            start, start_cpu = time.perf_counter(), time.process_time()
            rnd = services.pair_next_round(t, org)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            check(rnd, active, records)
            with transaction.atomic():
                TableSet.objects.filter(round=rnd).delete()
                t.audit.filter(action="pair").order_by("-pk")[:1].get().delete()
                rnd.delete()
        return times, cpu
    for _ in range(repeats):
        try:
            with transaction.atomic():
                start, start_cpu = time.perf_counter(), time.process_time()
                rnd = services.pair_next_round(t, org)
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                check(rnd, active, records)
                raise Rollback
        except Rollback:
            pass
    return times, cpu


def timed_pure(t: Tournament, repeats: int) -> tuple[list[float], list[float], list[float]]:
    """standings() (every Row), tabulate_columns().records() (what the pairing uses, on
    the columns the service reads) and pair_round() alone, on the inputs the service
    builds."""
    captured = {}
    original = standings.tabulate_columns

    def capture(players, *columns, **kw):
        captured["args"] = (list(players), [list(c) for c in columns], kw)
        return original(players, *columns, **kw)

    standings.tabulate_columns = capture
    try:
        services.current_standings(t)
    finally:
        standings.tabulate_columns = original
    ids, columns, kw = captured["args"]
    entrants = [standings.Entrant(pid, d) for pid, d in zip(ids, kw["dropped"], strict=True)]
    matches = [
        standings.SetRecord.missed_round(r, a)
        if missed
        else standings.SetRecord(r, a, b, ga, gb)
        if b is not None
        else standings.SetRecord.bye(r, a)
        for r, a, b, ga, gb, missed in zip(*columns, strict=True)
    ]
    st, tab, pr = [], [], []
    for _ in range(repeats):
        start = time.process_time()
        standings.standings(entrants, matches)
        st.append(time.process_time() - start)
        start = time.process_time()
        records = standings.tabulate_columns(ids, *columns, **kw).records()
        tab.append(time.process_time() - start)
        start = time.process_time()
        swiss.pair_round(records, seed="bench")
        pr.append(time.process_time() - start)
    return st, tab, pr


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="256,4096,16384")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument(
        "--gc-freeze",
        action="store_true",
        help="gc.collect() and gc.freeze() before timing, as cardgame/asgi.py and the Celery "
        "worker do after start-up (the collector's full passes then skip the loaded project)",
    )
    parser.add_argument(
        "--commit",
        action="store_true",
        help="let pair_next_round commit (the timing then includes the deferred foreign-key "
        "checks of the draft's rows) and delete the draft afterwards, instead of rolling back",
    )
    args = parser.parse_args()
    call_command("migrate", verbosity=0, interactive=False)
    print(
        f"database: {connection.vendor}; repeats: {args.repeats}; gc.freeze: {args.gc_freeze}; "
        f"commit: {args.commit}; load average: {os.getloadavg()[0]:.1f}"
    )
    print(
        "| N active | rounds before | service median | max | goal | service CPU | "
        "standings() | tabulate_columns().records() | pair_round() | load |"
    )
    print("|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    for n in [int(s) for s in args.sizes.split(",")]:
        rng = random.Random(args.seed + n)
        t, org = build_event(n, rng)
        try:
            rounds = max(1, math.ceil(math.log2(n)))
            play_rounds(t, org, rounds - 1, rng)
            fresh_statistics()
            active = set(t.registrations.filter(dropped=False).values_list("pk", flat=True))
            if args.gc_freeze:
                gc.collect()
                gc.freeze()
            service, cpu = timed_service(t, org, args.repeats, active, args.commit)
            st, tab, pr = timed_pure(t, args.repeats)
            if args.gc_freeze:
                gc.unfreeze()
            goal = GOALS_S.get(n)
            median = statistics.median(service)
            verdict = f"≤ {goal} s: {'met' if median <= goal else 'MISSED'}" if goal else ""
            ms = [f"{statistics.median(x) * 1000:.0f} ms" for x in (cpu, st, tab, pr)]
            print(
                f"| {len(active):,} | {rounds - 1} | {median * 1000:.0f} ms | "
                f"{max(service) * 1000:.0f} ms | {verdict} | {' | '.join(ms)} | "
                f"{os.getloadavg()[0]:.1f} |",
                flush=True,
            )
        finally:
            cleanup(t, org)


def cleanup(t: Tournament, org):
    users = get_user_model()
    ids = list(t.registrations.values_list("player_id", flat=True))
    t.audit.all().delete()
    t.matches.all().delete()
    t.rounds.all().delete()
    t.registrations.all().delete()
    t.delete()
    users.objects.filter(pk__in=ids).delete()
    users.objects.filter(pk=org.pk).delete()


if __name__ == "__main__":
    main()

"""Time to pair the next Swiss round through the service (issue 14), N = 256 … 16,384.

`services.pair_next_round` does what staff do with one click: the standings from the
database (`current_standings`: two queries and `standings()`), the pairing
(`swiss.pair_round`) and saving the draft (one round, one `bulk_create` of its matches,
the audit entry). This bench builds a real event in the database of DATABASE_URL (use
PostgreSQL, as in production): N players entered (bulk inserts; the decklists are not
what is measured), the event started, rounds 1 … R−1 paired by the service itself,
published and given random results (best of one, player a or b wins). Then the last
round is paired `--repeats` times, each inside a transaction rolled back afterwards, and
timed with `time.perf_counter()` around `pair_next_round` only. Beside it, the pure
functions on the same inputs: `standings()` alone and `pair_round()` alone.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kgk_bench \\
        .venv/bin/python bench/tournament_service_bench.py --sizes 256,4096,16384 --repeats 5

Every timed draft is checked: each active player exactly once, no rematch, at most one
bye, to a player without one. The database is migrated first; the bench's rows are
deleted at the end.
"""

from __future__ import annotations

import argparse
import datetime
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
from tournaments.models import Match, Registration, Round, Tournament  # noqa: E402

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
            m.status = Match.CONFIRMED
        Match.objects.bulk_update(matches, ["games_a", "games_b", "status"], batch_size=2000)


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


def timed_service(t: Tournament, org, repeats: int, active: set) -> list[float]:
    times = []
    records = standings.player_records(services.current_standings(t))
    for _ in range(repeats):
        try:
            with transaction.atomic():
                start = time.perf_counter()
                rnd = services.pair_next_round(t, org)
                times.append(time.perf_counter() - start)
                check(rnd, active, records)
                raise Rollback
        except Rollback:
            pass
    return times


def timed_pure(t: Tournament, repeats: int) -> tuple[list[float], list[float]]:
    """standings() and pair_round() alone, on the inputs current_standings builds."""
    captured = {}
    original = standings.standings

    def capture(players, results, **kw):
        captured["args"] = (list(players), list(results))
        return original(players, results, **kw)

    services.standings_mod.standings = capture
    try:
        services.current_standings(t)
    finally:
        services.standings_mod.standings = original
    players, results = captured["args"]
    st, pr = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        rows = standings.standings(players, results)
        st.append(time.perf_counter() - start)
        records = standings.player_records(rows)
        start = time.perf_counter()
        swiss.pair_round(records, seed="bench")
        pr.append(time.perf_counter() - start)
    return st, pr


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="256,4096,16384")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    call_command("migrate", verbosity=0, interactive=False)
    print(f"database: {connection.vendor}; repeats: {args.repeats}")
    print("| N active | rounds before | service median | max | goal | standings() | pair_round() |")
    print("|---:|---:|---:|---:|---|---:|---:|")
    for n in [int(s) for s in args.sizes.split(",")]:
        rng = random.Random(args.seed + n)
        t, org = build_event(n, rng)
        try:
            rounds = max(1, math.ceil(math.log2(n)))
            play_rounds(t, org, rounds - 1, rng)
            active = set(t.registrations.filter(dropped=False).values_list("pk", flat=True))
            service = timed_service(t, org, args.repeats, active)
            st, pr = timed_pure(t, args.repeats)
            goal = GOALS_S.get(n)
            median = statistics.median(service)
            verdict = f"≤ {goal} s: {'met' if median <= goal else 'MISSED'}" if goal else ""
            print(
                f"| {len(active):,} | {rounds - 1} | {median * 1000:.0f} ms | "
                f"{max(service) * 1000:.0f} ms | {verdict} | "
                f"{statistics.median(st) * 1000:.0f} ms | {statistics.median(pr) * 1000:.0f} ms |",
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

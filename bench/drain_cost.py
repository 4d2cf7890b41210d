"""CPU time of the drain itself (issue 16): one pending action per game, drained in this
process exactly as a worker's task does it (`services.drain`: the locked read, the engine,
the write batch, the commit, the push through Redis to three groups with a socket each,
the version note), without Celery around it. Counts this process's CPU (`process_time`, all
its threads) over the drains only; the requests are stored between
the timed parts. Run from the checkout whose code is measured (an A/B runs it from two):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python \\
        bench/drain_cost.py [--games 50] [--rounds 8] [--db-name kgk_bench_drain] \\
        [--redis redis://127.0.0.1:6379/5] [--cold]

`--cold`: this process forgets the positions it committed before each round (untimed), so
every drain reads the position from the database, as when the moves of a game land on
different workers. Also reported: the bytes the drains wrote, as the growth of the match
table with its TOAST (autovacuum off on it, so dead versions stay counted) and as WAL
(`pg_current_wal_lsn`: the whole server, so other databases' writes count too).

Uses its own database (dropped and recreated) and Redis DB (flushed).
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path.cwd()  # the checkout measured, not necessarily this file's
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchdb import bench_url, recreate_database  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--db-name", default="kgk_bench_drain")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/5")
    parser.add_argument("--cold", action="store_true", help="no position held between rounds")
    args = parser.parse_args()
    source = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kgk")
    url = bench_url(source, args.db_name)
    recreate_database(url)
    import redis

    redis.Redis.from_url(args.redis).flushdb()
    os.environ.update(DATABASE_URL=url, REDIS_URL=args.redis, DEBUG="false", DATABASE_POOL="1",
                      LOG_LEVEL="ERROR", DJANGO_SETTINGS_MODULE="cardgame.settings")  # fmt: skip
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    from cards_data.loader import load_cards

    load_cards()
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer
    from django.contrib.auth import get_user_model
    from django.db import connection, connections

    from engine.game import legal_actions, pending
    from engine.serialize import load
    from matches import push, services, state_cache
    from matches.models import ActionRequest, Match

    def written():
        """(WAL position, match table + TOAST bytes) now."""
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_lsn(), pg_total_relation_size('matches_match')")
            return cursor.fetchone()

    def wal_bytes(start, end) -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_wal_lsn_diff(%s, %s)", [end, start])
            return int(cursor.fetchone()[0])

    with connection.cursor() as cursor:  # dead row versions stay: the growth is what was written
        cursor.execute("ALTER TABLE matches_match SET (autovacuum_enabled = false, "
                       "toast.autovacuum_enabled = false)")  # fmt: skip

    sys.path.insert(0, str(ROOT / "tests" / "matches"))
    from kit import legal_colony

    users = [get_user_model().objects.create_user(f"d{i}", password=None) for i in range(2)]
    games = [
        services.create_match(players=users, colonies=(legal_colony(g % 8), legal_colony(g % 7)),
                              seed=g).pk
        for g in range(args.games)
    ]  # fmt: skip
    layer = get_channel_layer()
    for pk in games:  # one socket per group, as in a watched game
        for viewer in (0, 1, None):
            group = push.group_name(pk, viewer)
            async_to_sync(layer.group_add)(group, f"specific.bench!{group}")
    per_round = []
    wal = table = total = 0
    for _round in range(args.rounds):
        # the web tier's part, not timed: one legal request per active game
        for match in Match.objects.filter(pk__in=games, status="active"):
            state = load(match.state)
            ActionRequest.objects.create(
                match=match, seat=pending(state).player, client_action_id=f"r{match.version}",
                expected_version=match.version, action=legal_actions(state)[0].id,
            )  # fmt: skip
        if args.cold:
            state_cache.clear()
        before = written()
        connections.close_all()  # each task borrows the connection anew (Celery's fixup)
        started = time.process_time()
        drained = 0
        for pk in games:
            drained += services.drain(pk)
            connections.close_all()
        per_round.append((time.process_time() - started) / max(1, drained) * 1000)
        after = written()
        wal += wal_bytes(before[0], after[0])
        table += after[1] - before[1]
        total += drained
    print(f"{ROOT}: CPU per drained action, ms, per round: "
          + ", ".join(f"{x:.2f}" for x in per_round))  # fmt: skip
    print(f"  median {statistics.median(per_round):.2f} ms (first round left out: "
          f"{statistics.median(per_round[1:]):.2f} ms)")  # fmt: skip
    versions = Match.objects.filter(pk__in=games).values_list("version", flat=True)
    print(f"  bytes written per drained action ({total} actions, games now at versions "
          f"{min(versions)}-{max(versions)}): match table + TOAST {table / max(1, total):,.0f}, "
          f"WAL {wal / max(1, total):,.0f} (server-wide)")  # fmt: skip


if __name__ == "__main__":
    main()

"""What a web process pays to read a game for a player (issue 16): the GET's and the socket
hello's `selectors.match_payload(get_match(id), seat)`, in a process that holds no position
(a web process never drains), over games at every version from 0 to `--versions`, so the
reads see every length of log after a snapshot. CPU (`process_time`) and wall time per
read, the median of `--rounds` rounds. Run from the checkout whose code is measured:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python \\
        bench/read_cost.py [--games 40] [--versions 40] [--rounds 5] [--db-name kgk_bench_read]

Uses its own database (dropped and recreated).
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
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--versions", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--db-name", default="kgk_bench_read")
    args = parser.parse_args()
    source = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kgk")
    url = bench_url(source, args.db_name)
    recreate_database(url)
    os.environ.update(DATABASE_URL=url, DEBUG="false", LOG_LEVEL="ERROR",
                      DJANGO_SETTINGS_MODULE="cardgame.settings")  # fmt: skip
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    from cards_data.loader import load_cards

    load_cards()
    from django.contrib.auth import get_user_model

    from engine.game import legal_actions, pending
    from engine.serialize import load
    from matches import selectors, services, state_cache
    from matches.models import ActionRequest

    sys.path.insert(0, str(ROOT / "tests" / "matches"))
    from kit import legal_colony

    users = [get_user_model().objects.create_user(f"r{i}", password=None) for i in range(2)]
    games = []
    for g in range(args.games):  # game g stops at version g * versions / games
        match = services.create_match(
            players=users, colonies=(legal_colony(g % 8), legal_colony(g % 7)), seed=g
        )
        for _ in range(g * args.versions // args.games):
            state = load(match.state)
            if pending(state) is None:
                break
            ActionRequest.objects.create(
                match=match, seat=pending(state).player, client_action_id=f"v{match.version}",
                expected_version=match.version, action=legal_actions(state)[0].id,
            )  # fmt: skip
            services.drain(match.pk)
            match.refresh_from_db()
        games.append((match.pk, match.deciding_seat or 0))
    state_cache.clear()  # a web process holds no position
    cpu, wall = [], []
    for _round in range(args.rounds):
        started, clock = time.process_time(), time.perf_counter()
        for pk, seat in games:
            selectors.match_payload(selectors.get_match(pk), seat)
        cpu.append((time.process_time() - started) / len(games) * 1000)
        wall.append((time.perf_counter() - clock) / len(games) * 1000)
    print(f"{ROOT}: per read of a game at versions 0-{args.versions} (ms), per round: CPU "
          + ", ".join(f"{x:.2f}" for x in cpu) + "; wall "
          + ", ".join(f"{x:.2f}" for x in wall))  # fmt: skip
    print(f"  median CPU {statistics.median(cpu):.2f} ms, wall {statistics.median(wall):.2f} ms")


if __name__ == "__main__":
    main()

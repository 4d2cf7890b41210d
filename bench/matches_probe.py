"""Where one move's time goes, on an idle server (bench/RESULTS.md, "Online matches").

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kgk .venv/bin/python bench/matches_probe.py \
        [--moves 40] [--server uvicorn|daphne]

One game between two simulated people, the web server and one worker of matches_bench.py
(own database `kgk_bench_probe`, Redis DB 4). For each move: POST sent -> the request row's
`created` (the web tier stored it) -> the POST's answer -> `Match.updated` (the drain
committed) -> the update received on both players' sockets. Prints the medians.
"""

import argparse
import asyncio
import json
import os
import statistics
import sys
import time

import matches_bench as mb
from benchdb import bench_url, recreate_database

STAGES = ("request row created", "POST answered", "drain committed", "both sockets")


async def play(game, players, moves):
    import websockets
    from asgiref.sync import sync_to_async

    from matches.models import ActionRequest, Match

    people = [mb.Person(game, s, players[s][1], 0, {"status": {}}, None) for s in (0, 1)]
    headers = [{"Cookie": p.cookie, "Origin": f"http://{mb.HOST}"} for p in people]
    url = f"ws://{mb.HOST}/ws/matches/{game}/"
    sockets = [await websockets.connect(url, additional_headers=h) for h in headers]
    latest = [json.loads(await ws.recv()) for ws in sockets]
    rows = []
    for _ in range(moves):
        await asyncio.sleep(0.3)
        seat = max(latest, key=lambda m: m["version"])["state"]["clocks"]["deciding_seat"]
        version = latest[seat]["version"]
        action = latest[seat]["state"]["legal_actions"][0]["id"]
        body = {"client_action_id": f"p{version}", "expected_version": version, "action": action}
        sent = time.time()
        await people[seat].post(body)
        answered = time.time()
        for k, ws in enumerate(sockets):  # until this move's update (or a later one) arrives
            while (message := json.loads(await ws.recv()))["version"] <= version:
                pass
            latest[k] = message
        arrived = time.time()
        row = await sync_to_async(
            lambda v=version: ActionRequest.objects.get(match_id=game, client_action_id=f"p{v}")
        )()
        committed = await sync_to_async(lambda: Match.objects.get(pk=game).updated)()
        rows.append([(row.created.timestamp() - sent) * 1000, (answered - sent) * 1000,
                     (committed.timestamp() - sent) * 1000, (arrived - sent) * 1000])  # fmt: skip
    for ws in sockets:
        await ws.close()
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--server", choices=sorted(mb.SERVERS), default="uvicorn")
    args = parser.parse_args()
    mb.OUT.mkdir(exist_ok=True)
    source = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kgk")
    db_url = bench_url(source, "kgk_bench_probe")
    recreate_database(db_url)
    import redis

    redis.Redis.from_url(mb.REDIS).flushdb()
    mb.setup_django(db_url)
    players = mb.make_players(2)
    processes = []
    try:
        processes.append(mb.start_web(db_url, args.server))
        processes.append(mb.start_worker(db_url, 0))
        game = mb.create_games(players, 1)[0]
        rows = asyncio.run(play(game, players, args.moves))
    finally:
        mb.stop(processes)
    for i, name in enumerate(STAGES):
        print(f"{name}: median {statistics.median(r[i] for r in rows):.1f} ms")


if __name__ == "__main__":
    sys.exit(main())

"""Quick play under a crowd (issue 37): N people queue within a minute; how long each waits
for their game once a partner exists.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kgk .venv/bin/python bench/quickplay_bench.py \
        [--people 1000] [--seconds 60] [--runs 3] [--workers 2] [--web 2] \
        [--server uvicorn|daphne] [--port 8642] [--redis redis://127.0.0.1:6379/5] \
        [--db-name kgk_bench_quick]

Uses its own database `kgk_bench_quick` (dropped and recreated) and Redis DB 5 (flushed); real
ASGI servers (uvicorn by default; --web processes on --port, --port + 1, ..., each person on
one of them, round robin), real Celery worker processes (`--pool=solo`) and a beat (the
clock sweep and the queues' sweep), as bench/matches_bench.py starts them.

Each simulated person is a page: at a random moment of the minute it opens the lobby's socket
(/ws/quickplay/), then POSTs the join (as the section's script does, JSON), pings every 5 s,
and waits for "matched" on its socket, or finds it matched in the join's answer. All join the
same queue (original, standard, casual): partners exist for everyone but, at most, the last.

The wait of a person is counted from the moment a partner exists, i.e. the later of the two
joins was sent, to the moment the person knew their game: the join's answer for the later of
the two, the socket's "matched" for the earlier (waiting for a partner who has not come yet
is not the system's time). Goal: p95 under 1 s. Printed per run; the median of the runs'
p50/p95/max at the end. Between runs every game is aborted and the queue emptied.
"""

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import matches_bench as site  # noqa: E402  (the processes: web, workers, beat)
from benchdb import ROOT, bench_url, percentile, recreate_database  # noqa: E402

PING = 5.0  # seconds, as static/js/quickplay/lobby.js
QUEUE = {"ruleset": "original", "time_control": "standard", "rated": "", "bot_after_wait": ""}


def make_people(count):
    """Users with a legal deck each and a logged-in session cookie."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    sys.path.insert(0, str(ROOT / "tests" / "matches"))
    from kit import make_deck

    people = []
    for i in range(count):
        user = get_user_model().objects.create_user(f"queue{i}", password=None)
        deck = make_deck(user, seed=i % 8, name=f"queue{i}")
        client = Client()
        client.force_login(user)
        people.append(
            {"user": user.pk, "deck": deck.pk, "session": client.cookies["sessionid"].value}
        )
    return people


class Person:
    def __init__(self, info, host, record):
        self.info, self.host, self.record = info, host, record
        self.csrf = secrets.token_hex(16)
        self.cookie = f"sessionid={info['session']}; csrftoken={self.csrf}"
        self.joined = None  # perf_counter when the join was sent
        self.known = None  # perf_counter when the person knew their game
        self.match = None
        self.answered = None  # perf_counter when the join's answer came

    async def post_join(self):
        body = "&".join(f"{k}={v}" for k, v in {**QUEUE, "deck": self.info["deck"]}.items())
        data = body.encode()
        host, port = self.host.split(":")
        head = (
            f"POST /en/quickplay/join/ HTTP/1.1\r\nHost: {self.host}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\nAccept: application/json\r\n"
            f"Content-Length: {len(data)}\r\nCookie: {self.cookie}\r\n"
            f"X-CSRFToken: {self.csrf}\r\nOrigin: http://{self.host}\r\n"
            "Connection: close\r\n\r\n"
        )
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            writer.write(head.encode() + data)
            await writer.drain()
            status = int((await asyncio.wait_for(reader.readline(), timeout=60)).split()[1])
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            answer = json.loads(await reader.readexactly(length))
        finally:
            writer.close()
        return status, answer

    async def run(self, websockets, start_at, stop_at):
        await asyncio.sleep(max(0.0, start_at - time.monotonic()))
        try:
            async with websockets.connect(
                f"ws://{self.host}/ws/quickplay/",
                additional_headers={"Cookie": self.cookie, "Origin": f"http://{self.host}"},
                open_timeout=60,
            ) as ws:
                self.joined = time.perf_counter()
                status, answer = await self.post_join()
                self.answered = time.perf_counter()
                if status != 201:
                    self.record["refused"].append((status, answer))
                    return
                entry = answer["entry"]
                if entry["status"] == "matched":
                    self.known, self.match = time.perf_counter(), entry["match"]
                    return
                await ws.send(json.dumps({"type": "watch"}))
                await self.wait_matched(ws, stop_at)
        except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as exc:
            self.record["errors"].append(repr(exc))

    async def wait_matched(self, ws, stop_at):
        next_ping = time.monotonic() + PING
        while time.monotonic() < stop_at:
            try:
                text = await asyncio.wait_for(
                    ws.recv(), timeout=max(0.05, next_ping - time.monotonic())
                )
            except TimeoutError:
                await ws.send(json.dumps({"type": "ping"}))
                next_ping = time.monotonic() + PING
                continue
            message = json.loads(text)
            entry = message.get("entry") or {}
            if message["type"] == "matched" or entry.get("status") == "matched":
                self.known = time.perf_counter()
                self.match = message.get("match") or entry.get("match")
                return


async def crowd(people, hosts, seconds, tail):
    import websockets

    record = {"refused": [], "errors": []}
    rng = random.Random(37)
    begin = time.monotonic() + 1.0
    stop_at = begin + seconds + tail
    # person i uses web process i mod --web (a load balancer's round robin); a "matched" push
    # crosses processes through Redis
    persons = [Person(info, hosts[i % len(hosts)], record) for i, info in enumerate(people)]
    moments = sorted(rng.uniform(0, seconds) for _ in persons)
    await asyncio.gather(
        *(p.run(websockets, begin + t, stop_at) for p, t in zip(persons, moments, strict=True))
    )
    return persons, record


def waits(persons):
    """Each matched person's wait from the moment their partner existed (module docstring)."""
    by_match = {}
    for person in persons:
        if person.match is not None:
            by_match.setdefault(person.match, []).append(person)
    out, odd = [], 0
    for pair in by_match.values():
        if len(pair) != 2:
            odd += 1
            continue
        partner_exists = max(p.joined for p in pair)
        out += [max(0.0, p.known - partner_exists) * 1000 for p in pair]
    return out, odd


def answer_times(persons):
    """Each join's answer time (sent to answered), ms: the web's share of the wait."""
    return [(p.answered - p.joined) * 1000 for p in persons if p.answered is not None]


def reset():
    """Every game aborted and the queue emptied: the next run starts as the first did."""
    from django.utils import timezone

    from matches.models import Match
    from quickplay.models import QueueEntry

    QueueEntry.objects.filter(status="waiting").update(status="left", ended=timezone.now())
    Match.objects.exclude(status__in=["finished", "aborted"]).update(
        status="aborted", decision_deadline=None, finished=timezone.now()
    )


def uptime() -> str:
    """`uptime`'s line in UTC (django.setup() put the site's time zone into TZ)."""
    command = ["uptime"]
    return subprocess.run(
        command, capture_output=True, text=True, env={**os.environ, "TZ": "UTC"}
    ).stdout.strip()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument(
        "--tail", type=float, default=15, help="seconds to wait after the last join"
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--web", type=int, default=2, help="web processes (ports --port + i)")
    parser.add_argument("--server", choices=sorted(site.SERVERS), default="uvicorn")
    parser.add_argument("--port", type=int, default=8642)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/5")
    parser.add_argument("--db-name", default="kgk_bench_quick")
    args = parser.parse_args()
    # a bench stopped with `kill` still stops its site and workers (the finally below)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    site.PORT, site.HOST, site.REDIS = args.port, f"127.0.0.1:{args.port}", args.redis
    site.OUT = ROOT / "bench" / "out" / "quickplay"  # its processes' logs, apart
    site.OUT.mkdir(parents=True, exist_ok=True)
    source = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kgk")
    db_url = bench_url(source, args.db_name)
    recreate_database(db_url)
    import redis

    redis.Redis.from_url(args.redis).flushdb()
    site.setup_django(db_url)
    people = make_people(args.people)
    processes = []
    results = []
    try:
        processes += [site.start_web(db_url, args.server, i) for i in range(args.web)]
        hosts = [f"127.0.0.1:{args.port + i}" for i in range(args.web)]
        processes += [site.start_worker(db_url, i) for i in range(args.workers)]
        processes.append(site.start_beat(db_url))
        for run in range(args.runs):
            load = uptime()
            persons, record = asyncio.run(crowd(people, hosts, args.seconds, args.tail))
            samples, odd = waits(persons)
            matched = sum(p.match is not None for p in persons)
            row = {
                "p50": percentile(samples, 0.5),
                "p95": percentile(samples, 0.95),
                "max": max(samples),
                "matched": matched,
                "odd": odd,
                "refused": len(record["refused"]),
                "errors": len(record["errors"]),
            }
            results.append(row)
            print(f"run {run + 1}: {args.people} people in {args.seconds:.0f} s; before: {load}")
            print(
                f"  matched {matched} ({len(samples) // 2} games), unpaired games {odd}, "
                f"refused {row['refused']}, errors {row['errors']} {record['errors'][:3]}"
            )
            answers = answer_times(persons)
            print(
                f"  join answered, ms: p50 {percentile(answers, 0.5):.0f}, "
                f"p95 {percentile(answers, 0.95):.0f}, max {max(answers):.0f}"
            )
            print(
                f"  wait from partner existing, ms: p50 {row['p50']:.0f}, p95 {row['p95']:.0f},"
                f" max {row['max']:.0f}"
            )
            reset()
        after = uptime()
        print(f"after: {after}")
        print(
            "median of the runs, ms: "
            + ", ".join(
                f"{key} {statistics.median(r[key] for r in results):.0f}"
                for key in ("p50", "p95", "max")
            )
        )
    finally:
        site.stop(processes)


if __name__ == "__main__":
    main()

"""Online matches: latency at human pace, worker throughput, resync, clock lateness.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kgk .venv/bin/python bench/matches_bench.py \
        [--games 50] [--seconds 60] [--think 1.0] [--think-model uniform|people] [--workers 2]
        [--web 1] [--server uvicorn|daphne] [--latency-only] [--throughput-only] [--seats 4]
        [--port 8765] [--redis redis://127.0.0.1:6379/4] [--db-name kgk_bench_matches]

Issue 16's scale run: --games 200 --workers 4 --web 2 --think-model people --ramp 20 --latency-only
(two uvicorn processes on --port and --port + 1, each game's clients on one of them).

Uses its own database `kgk_bench_matches` (dropped and recreated) and Redis DB 4 (flushed),
or --db-name / --redis / --port of its own, so two engineers' runs do not collide;
a real ASGI server (uvicorn by default, one process), real Celery worker processes
(`--pool=solo`) and a beat. Phases:

1. latency: N games between two simulated people each (2N WebSocket clients); a player
   who has a decision waits a think time (uniform 0.5..1.5 x --think s), then POSTs a random
   legal action over HTTP with session + CSRF. Measured: POST sent -> the update with that
   version received on the first of the two players' sockets ("first") and on both
   ("both" = the later of the two). During the games, sockets of random players reconnect:
   connect -> first message (the full state) = resync time. Each client's first connection
   (all 100 open in the same instant) is reported apart, as "first connect".
2. throughput: one worker; 50 games whose next action is submitted as soon as the previous
   is applied (a driver in this process); applied actions per second of that worker.
3. clocks: 20 games with a 2 s decision limit that nobody plays; the beat's default move
   request time minus the decision deadline = lateness.

--seats 3..6 (issue 17): every game of phase 1 is a multiplayer table (R 17.1) of two
simulated people (seats 0 and 1, the two sockets measured) and bots in the other seats;
"both" is then the later of the two people's sockets, the bots' moves in between are the
worker's as in a real table.

Goals (issue 5): p50 <= 30 ms, p95 <= 100 ms; >= 100 applied actions/s per worker process;
resync p95 <= 300 ms; a timeout at most 2 s late.

Why one file of ~760 lines: it is one run, read top to bottom (processes, people, phases,
report), and its phases share the settings main() takes from the command line as module
globals (REDIS, HOST, OUT), which bench/matches_probe.py reads too; split, each part would
need them passed around or imported back.
"""

import argparse
import asyncio
import json
import math
import os
import random
import secrets
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import worker_cpu_probe  # noqa: E402
from benchdb import ROOT, bench_url, percentile, recreate_database  # noqa: E402

REDIS = "redis://127.0.0.1:6379/4"
RECONNECT = (5, 20)  # seconds between a client's reconnects (--reconnect)
PORT = 8765
HOST = f"127.0.0.1:{PORT}"
OUT = ROOT / "bench" / "out"


# --- processes -------------------------------------------------------------------------------


def env_for(db_url):
    return {**os.environ, "DATABASE_URL": db_url, "REDIS_URL": REDIS, "DEBUG": "false",
            "DATABASE_POOL": "1", "LOG_LEVEL": "ERROR", "PYTHONPATH": str(ROOT)}  # fmt: skip


def start(name, command, db_url, ready=None, timeout=60):
    log_path = OUT / f"matches_{name}.log"
    log = open(log_path, "w")  # noqa: SIM115 (closed when the process ends)
    process = subprocess.Popen(command, cwd=ROOT, env=env_for(db_url), stdout=log, stderr=log)
    deadline = time.monotonic() + timeout
    while ready is not None and time.monotonic() < deadline:
        if ready(log_path):
            return process
        if process.poll() is not None:
            break
        time.sleep(0.2)
    if ready is not None:
        raise RuntimeError(f"{name} did not start: {log_path.read_text()[-2000:]}")
    return process


def start_worker(db_url, index, beat=False, probe=False):
    command = [sys.executable, "-m", "celery", "-A", "cardgame", "worker", "--pool=solo",
               "-n", f"bench{index}@%h", "--without-gossip", "--without-mingle",
               "--loglevel=INFO"]  # fmt: skip
    if probe:  # bench/worker_cpu_probe.py: where each worker's CPU goes, per drain
        command.append("--include=bench.worker_cpu_probe")
    return start(f"worker{index}", command, db_url, lambda p: "ready." in p.read_text())


def start_beat(db_url):
    command = [sys.executable, "-m", "celery", "-A", "cardgame", "beat", "--loglevel=INFO",
               "-s", str(OUT / "matches_beat_schedule")]  # fmt: skip
    return start("beat", command, db_url, lambda p: "beat: Starting" in p.read_text())


SERVERS = {
    "daphne": ["-m", "daphne", "-b", "127.0.0.1", "-p", str(PORT), "cardgame.asgi:application"],
    "uvicorn": ["-m", "uvicorn", "--host", "127.0.0.1", "--port", str(PORT), "--no-access-log",
                "--log-level", "warning", "cardgame.asgi:application"],
}  # fmt: skip


def start_web(db_url, server="uvicorn", index=0):
    """Web process `index` listens on PORT + index (the clients of game g use process
    g mod --web: a load balancer that keeps a game's two players on one process would do
    the same; pushes cross processes through Redis either way)."""
    port = PORT + index
    command = [sys.executable, *SERVERS[server]]
    command = [str(port) if part == "8765" else part for part in command]  # --port

    def ready(_path):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return True
        except OSError:
            return False

    return start(f"web{index}" if index else "web", command, db_url, ready)


def stop(processes):
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


# --- setup in this process -------------------------------------------------------------------


def setup_django(db_url):
    os.environ.update(env_for(db_url))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardgame.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    from cards_data.loader import load_cards

    load_cards()


def make_players(count):
    """Users with a legal deck each and a logged-in session cookie (+ CSRF token)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    sys.path.insert(0, str(ROOT / "tests" / "matches"))
    from kit import legal_colony

    users = []
    for i in range(count):
        # No password (force_login below): hashing one with PBKDF2 took ~1 s per user on a
        # busy machine, minutes for the 240 players of a run before it measured anything.
        user = get_user_model().objects.create_user(f"bench{i}", password=None)
        client = Client()
        client.force_login(user)
        users.append((user, client.cookies["sessionid"].value, legal_colony(i % 8)))
    return users


def create_games(players, n, seats=2, **kw):
    """Two people per game; with seats > 2 a table (R 17.1) whose other seats are bots."""
    from matches import services

    games = []
    for g in range(n):
        (a, _, ca), (b, _, cb) = players[2 * g], players[2 * g + 1]
        bots = seats - 2
        games.append(
            services.create_match(
                players=(a, b, *[None] * bots),
                colonies=(ca, cb, *[ca] * bots),
                bots=(None, None, *["heuristic"] * bots),
                decks=(None,) * seats,
                seed=g,
                **kw,
            ).pk
        )
    return games


# --- phase 1: people over HTTP + WebSocket -------------------------------------------------------


def think_time(model, mean, rng):
    """Seconds a simulated person thinks before a decision. "uniform": 0.5..1.5 x mean (the
    bench's pace so far). "people": log-normal around the mean (median 0.8 x mean, a tail of
    slow decisions up to 5 x mean), closer to how people play a card game."""
    if model == "people":
        return min(5 * mean, rng.lognormvariate(math.log(0.8 * mean), 0.65))
    return mean * rng.uniform(0.5, 1.5)


class Person:
    def __init__(
        self, match_id, seat, session, think, record, rng, host=None, model="uniform", moves="post"
    ):
        self.match_id, self.seat, self.think = match_id, seat, think
        self.host, self.model, self.moves = host or HOST, model, moves
        self.ws = None  # the open socket (moves="socket" sends on it)
        self.answers = {}  # client_action_id -> future of the socket's answer
        self.csrf = secrets.token_hex(16)
        self.cookie = f"sessionid={session}; csrftoken={self.csrf}"
        self.record, self.rng = record, rng
        self.latest = None
        self.changed = asyncio.Event()
        self.over = False

    async def post(self, body):
        """POST over a plain asyncio connection: no threads, so the process that measures
        does not also fight its own HTTP threads for the GIL."""
        data = json.dumps(body).encode()
        host, port = self.host.split(":")
        head = (
            f"POST /api/matches/{self.match_id}/actions/ HTTP/1.1\r\n"
            f"Host: {self.host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\nCookie: {self.cookie}\r\n"
            f"X-CSRFToken: {self.csrf}\r\nOrigin: http://{self.host}\r\n"
            "Connection: close\r\n\r\n"
        )
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            writer.write(head.encode() + data)
            await writer.drain()
            status_line = await asyncio.wait_for(reader.readline(), timeout=30)
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            await reader.readexactly(length)
        finally:
            writer.close()
        return int(status_line.split()[1])

    async def send_move(self, body):
        """The HTTP status of a move: over the open socket with moves="socket" (as the game
        page does, the POST when no answer comes within 3 s), else by POST."""
        ws = self.ws
        if self.moves == "socket" and ws is not None:
            answered = asyncio.get_running_loop().create_future()
            self.answers[body["client_action_id"]] = answered
            try:
                await ws.send(json.dumps({"type": "act", **body}))
                status = await asyncio.wait_for(answered, timeout=3)
                if status is not None and status != 503:
                    return status
            except Exception:  # noqa: BLE001 - closed or silent: the page's fallback
                pass
            self.answers.pop(body["client_action_id"], None)
            self.record["fallbacks"] += 1
        return await self.post(body)

    async def socket_loop(self, websockets, stop_at, ramp=0.0):
        # The first connection of every client opens in the same instant as 99 others (the
        # start of the run; spread over `ramp` s with --ramp): it is kept apart from the
        # reconnects that "resync" measures.
        initial = True
        await asyncio.sleep(self.rng.uniform(0, ramp))
        while time.monotonic() < stop_at and not self.over:
            samples = self.record["connect" if initial else "resync"]
            initial = False
            started = time.perf_counter()
            try:
                await self.watch(websockets, stop_at, samples, started)
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
                # refused or timed out (a page would try again): counted, then again
                self.record["connect failures"] += 1
                await asyncio.sleep(self.rng.uniform(0.5, 2))
        self.changed.set()

    async def watch(self, websockets, stop_at, samples, started):
        async with websockets.connect(
            f"ws://{self.host}/ws/matches/{self.match_id}/",
            additional_headers={"Cookie": self.cookie, "Origin": f"http://{self.host}"},
            open_timeout=30,
        ) as ws:
            first = True
            self.ws = ws
            reconnect_at = time.monotonic() + self.rng.uniform(*RECONNECT)
            while (left := min(stop_at, reconnect_at) - time.monotonic()) > 0 and not self.over:
                # the socket closes at its own moment, not at the first message after it:
                # that was the moment after a push, often with the move's answer still to come
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=min(0.5, left))
                except TimeoutError:
                    continue
                now = time.perf_counter()
                message = json.loads(raw)
                if message.get("type") == "answer":  # to a move sent on this socket
                    answered = self.answers.pop(message["client_action_id"], None)
                    if answered is not None and not answered.done():
                        answered.set_result(message["status"])
                    continue
                if first:
                    samples.append((now - started) * 1000)
                    first = False
                key = (self.match_id, message["version"], self.seat)
                self.record["arrivals"].setdefault(key, now)
                self.record["seen"].setdefault((self.match_id, self.seat), []).append(
                    (message["version"], now)
                )
                if self.latest is None or message["version"] >= self.latest["version"]:
                    self.latest = message
                    self.changed.set()
                self.over = message["state"]["status"] != "active"
        self.ws = None
        for answered in self.answers.values():  # closed under a move: its POST goes at once,
            if not answered.done():  # as the page's does (not after the 3 s wait)
                answered.set_result(None)

    async def play_loop(self, stop_at):
        acted = set()
        while time.monotonic() < stop_at and not self.over:
            state = self.latest["state"] if self.latest else None
            if not state or not state["legal_actions"] or state["version"] in acted:
                self.changed.clear()
                try:
                    await asyncio.wait_for(self.changed.wait(), timeout=1)
                except TimeoutError:
                    pass
                continue
            await asyncio.sleep(think_time(self.model, self.think, self.rng))
            version = state["version"]
            if self.latest["state"]["version"] != version:
                continue
            action = self.rng.choice(state["legal_actions"])["id"]
            body = {"client_action_id": f"p{self.seat}v{version}", "expected_version": version,
                    "action": action}  # fmt: skip
            sent = time.perf_counter()
            status = await self.send_move(body)
            self.record["post"].append((time.perf_counter() - sent) * 1000)
            acted.add(version)
            self.record["status"][status] = self.record["status"].get(status, 0) + 1
            if status == 202:
                self.record["posts"].append((self.match_id, version + 1, sent, time.monotonic()))


async def human_phase(
    games, sessions, seconds, think, web=1, model="uniform", ramp=0.0, moves="post"
):
    import websockets

    record = {"arrivals": {}, "seen": {}, "posts": [], "resync": [], "connect": [], "status": {}, "post": [],
              "connect failures": 0, "fallbacks": 0}  # fmt: skip
    rng = random.Random(1)
    stop_at = time.monotonic() + seconds
    tasks = []
    for g, match_id in enumerate(games):
        for s in (0, 1):
            host = f"127.0.0.1:{PORT + g % web}"
            person = Person(
                match_id, s, sessions[2 * g + s], think, record, rng, host, model, moves
            )
            tasks += [person.socket_loop(websockets, stop_at, ramp), person.play_loop(stop_at)]
    await asyncio.gather(*tasks)
    return latencies(record, stop_at)


def latencies(record, stop_at):
    """POST sent -> the new position on each player's socket (after the run: no polling in
    the measuring process while it runs).

    A seat has the new position when its socket brings that version or any later one: a
    socket that was reconnecting while version v was pushed and whose hello already brought
    v + 1 missed v's message but not the position ("superseded", counted apart). "lost" is
    a version after which a seat's socket brought nothing as new until the run ended. A
    version posted before the other seat's first socket opened (--ramp spreads them over
    seconds) is not timed: its delay would be the ramp's."""
    stats = {"first": [], "both": [], "resync": record["resync"], "lost": 0, "superseded": 0,
             "before connect": 0,
             "connect failures": record["connect failures"],
             "first connect": record["connect"],
             "status": record["status"], "post": record["post"],
             "fallbacks": record["fallbacks"], "slow sent at": []}  # fmt: skip
    arrivals, seen = record["arrivals"], record["seen"]

    def reached(match_id, version, seat):
        exact = arrivals.get((match_id, version, seat))
        later = [t for v, t in seen.get((match_id, seat), ()) if v >= version]
        return exact, min(later, default=None)

    for match_id, version, sent, posted_at in record["posts"]:
        watching = [seen.get((match_id, seat), [(0, math.inf)])[0][1] for seat in (0, 1)]
        if max(watching) > sent:  # a seat's first socket (spread by --ramp) was not open yet
            stats["before connect"] += 1
            continue
        got = [reached(match_id, version, seat) for seat in (0, 1)]
        if any(at is None for _exact, at in got):
            if posted_at < stop_at - 10:  # not just cut off by the end of the run
                stats["lost"] += 1
            continue
        stats["superseded"] += any(exact is None for exact, _at in got)
        times = [at for _exact, at in got]
        stats["both"].append((max(times) - sent) * 1000)
        stats["first"].append((min(times) - sent) * 1000)
        if max(times) - sent > 1:
            stats["slow sent at"].append(sent)
    starts = [sent for _m, _v, sent, _p in record["posts"]]
    stats["slow sent at"] = [round(at - min(starts), 1) for at in sorted(stats["slow sent at"])]
    return stats


# --- phase 2: worker throughput ------------------------------------------------------------


def cpu_seconds(pid) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    return _stat_cpu(Path(f"/proc/{pid}/stat"))


def main_thread_cpu_seconds(pid) -> float:
    """The same for the process's main thread only: in a solo-pool worker the Celery loop
    and every task (the drain, its push); the other threads are the database pool's (and,
    before the push left from the task's own thread, the push sender)."""
    return _stat_cpu(Path(f"/proc/{pid}/task/{pid}/stat"))


def _stat_cpu(path) -> float:
    fields = path.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def throughput_phase(players, seconds, games_count=50):
    from matches import services
    from matches.models import ActionRequest, Match

    games = create_games(players, games_count)
    users = {}
    for match in Match.objects.filter(pk__in=games).prefetch_related("seats__user"):
        users[match.pk] = [s.user for s in match.seats.order_by("seat")]
    rng = random.Random(2)
    submitted = {}
    applied_before = sum(Match.objects.filter(pk__in=games).values_list("version", flat=True))
    start = time.perf_counter()
    waiting = []  # requests not yet applied, sampled once a cycle: is the worker ever idle?
    while time.perf_counter() - start < seconds:
        waiting.append(ActionRequest.objects.filter(status="pending").count())
        fields = ("pk", "version", "deciding_seat", "legal_ids", "status")
        for match in Match.objects.filter(pk__in=games, status="active").only(*fields):
            if submitted.get(match.pk) == match.version or not match.legal_ids:
                continue
            submitted[match.pk] = match.version
            services.submit_action(
                match, users[match.pk][match.deciding_seat], client_action_id=f"t{match.version}",
                expected_version=match.version, action=rng.choice(match.legal_ids),
            )  # fmt: skip
        time.sleep(0.01)
    elapsed = time.perf_counter() - start
    applied = sum(Match.objects.filter(pk__in=games).values_list("version", flat=True))
    idle = sum(1 for w in waiting if w == 0) / len(waiting)
    print(
        f"  phase 2 queue: {statistics.median(waiting):.0f} requests waiting (median of "
        f"{len(waiting)} samples); none waiting in {idle:.0%} of them"
    )
    return (applied - applied_before) / elapsed


def bot_phase(seconds):
    """Bot-against-bot games, which a worker plays on by itself in batches (`play_bot_game`):
    applied decisions per second from their creation until all are over (or `seconds`)."""
    from matches import services
    from matches.models import ActionRequest, Match

    sys.path.insert(0, str(ROOT / "tests" / "matches"))
    from kit import legal_colony

    start_count = ActionRequest.objects.filter(status="applied").count()
    start = time.perf_counter()
    ids = [
        services.create_match(players=(None, None), colonies=(legal_colony(g), legal_colony(g + 1)),
                              bots=("heuristic", "random"), seed=1000 + g).pk
        for g in range(20)
    ]  # fmt: skip
    while time.perf_counter() - start < seconds:
        if not Match.objects.filter(pk__in=ids, status=Match.ACTIVE).exists():
            break
        time.sleep(0.05)
    elapsed = time.perf_counter() - start
    done = ActionRequest.objects.filter(status="applied").count() - start_count
    stop_all_games()
    return done / elapsed


def stop_all_games():
    """Abort what is still running and let the worker's queue empty before the next phase."""
    from matches.models import ActionRequest, Match

    Match.objects.filter(status="active").update(status="aborted", decision_deadline=None)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if not ActionRequest.objects.filter(status="pending").exists():
            break
        time.sleep(0.2)
    time.sleep(2)


# --- phase 3: clocks -------------------------------------------------------------------------


def clock_phase(players, count=20, limit=2):
    from matches.models import ActionRequest, Match

    games = create_games(players, count)
    Match.objects.filter(pk__in=games).update(decision_limit=limit)
    from django.utils import timezone

    deadlines = {}
    now = timezone.now()
    for i, pk in enumerate(games):  # spread the deadlines over the beat's 1 s period
        deadline = now + timezone.timedelta(seconds=limit + i * 0.137)
        Match.objects.filter(pk=pk).update(decision_started=now, decision_deadline=deadline)
        deadlines[pk] = (deadline, Match.objects.get(pk=pk).version)
    time.sleep(limit + count * 0.137 + 6)
    late = []
    for pk, (deadline, version) in deadlines.items():
        request = ActionRequest.objects.filter(match_id=pk, client_action_id=f"timeout:{version}")
        request = request.first()
        if request is not None:
            late.append((request.created - deadline).total_seconds())
    return late


def named(processes, web=1):
    """(name, process) of the web servers and the workers, for the CPU shares of phase 1."""
    names = [f"web{i}" if web > 1 else "web" for i in range(web)]
    names += [f"worker{i}" for i in range(len(processes) - web)]
    return list(zip(names, processes, strict=True))


class Floor(threading.Thread):
    """The floor under a move's latency, measured in the same run: a trivial Celery task
    (cardgame.celery.floor_ping) sent through the same broker to the same workers, which
    pushes one item on a Redis list; .delay() -> the item popped here, every 0.25 s."""

    def __init__(self):
        super().__init__(daemon=True)
        self.samples, self.stopping = [], threading.Event()

    def run(self):
        import redis

        from cardgame.celery import floor_ping

        client = redis.Redis.from_url(REDIS)
        while not self.stopping.wait(0.25):
            key = f"bench-floor:{secrets.token_hex(8)}"
            started = time.perf_counter()
            floor_ping.delay(key)
            try:
                popped = client.blpop([key], timeout=10)
            except redis.RedisError:  # a read timed out on a swamped machine: no sample
                popped = None
            if popped is not None:
                self.samples.append((time.perf_counter() - started) * 1000)

    def stop(self):
        self.stopping.set()
        self.join()


def ratios(samples, floor):
    """' = p50 N x the floor's p50, p95 M x the floor's p95' (the issue's measure)."""
    if not samples or not floor:
        return ""
    p50 = percentile(samples, 0.5) / percentile(floor, 0.5)
    p95 = percentile(samples, 0.95) / percentile(floor, 0.95)
    return f"  = p50 {p50:.1f}x the floor's p50, p95 {p95:.1f}x the floor's p95"


def summary(name, samples):
    if not samples:
        return f"{name}: no samples"
    return (f"{name}: n={len(samples)} p50={percentile(samples, 0.5):.1f} "
            f"p90={percentile(samples, 0.9):.1f} p95={percentile(samples, 0.95):.1f} "
            f"max={max(samples):.1f}")  # fmt: skip


def main():
    global PORT, HOST, REDIS, RECONNECT
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, s")
    parser.add_argument(
        "--think-model",
        choices=("uniform", "people"),
        default="uniform",
        help="uniform 0.5-1.5 x --think, or log-normal with a slow tail",
    )
    parser.add_argument("--web", type=int, default=1, help="web processes (ports --port + i)")
    parser.add_argument("--reconnect", type=float, default=None,
                        help="mean seconds between a client's reconnects (default 5-20 s)")  # fmt: skip
    parser.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="spread the clients' first connections over this many seconds",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--moves", choices=("post", "socket"), default="socket",
                        help="how the people send moves: over their socket (the game page's "
                             "way) or by POST (its fallback)")  # fmt: skip
    parser.add_argument("--server", choices=sorted(SERVERS), default="uvicorn")
    parser.add_argument("--latency-only", action="store_true", help="phase 1 only")
    parser.add_argument("--probe", action="store_true",
                        help="each worker's CPU per drain, by part (bench/worker_cpu_probe.py)")  # fmt: skip
    parser.add_argument("--seats", type=int, default=2, help="3-6: phase 1 plays tables (R 17.1)")
    parser.add_argument("--port", type=int, default=PORT, help="the web server's own port")
    parser.add_argument("--redis", default=REDIS, help="a Redis DB of its own (flushed)")
    parser.add_argument("--db-name", default="kgk_bench_matches", help="dropped and recreated")
    parser.add_argument("--throughput-only", action="store_true", help="phase 2 only")
    args = parser.parse_args()
    PORT, HOST, REDIS = args.port, f"127.0.0.1:{args.port}", args.redis
    if args.reconnect:
        RECONNECT = (0.5 * args.reconnect, 1.5 * args.reconnect)
    OUT.mkdir(exist_ok=True)
    source = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kgk")
    db_url = bench_url(source, args.db_name)
    recreate_database(db_url)
    import redis

    redis.Redis.from_url(REDIS).flushdb()
    setup_django(db_url)
    players = make_players(2 * args.games + 2 * 50 + 2 * 20)
    processes = []
    try:
        processes += [start_web(db_url, args.server, i) for i in range(args.web)]
        if args.probe:
            worker_cpu_probe.clear()
        processes += [start_worker(db_url, i, probe=args.probe) for i in range(args.workers)]
        games = create_games(players[: 2 * args.games], args.games, seats=args.seats)
        sessions = [session for _u, session, _c in players[: 2 * args.games]]
        if args.throughput_only:
            args.seconds = 0  # phase 1 only starts the processes
        from matches.models import ActionRequest

        cpu_before = {name: cpu_seconds(p.pid) for name, p in named(processes, args.web)}
        main_before = {n: main_thread_cpu_seconds(p.pid) for n, p in named(processes, args.web)}
        applied_before = ActionRequest.objects.filter(status="applied").count()
        own_before, wall_before = time.process_time(), time.perf_counter()
        floor = Floor()
        floor.start()
        try:
            stats = asyncio.run(
                human_phase(
                    games,
                    sessions,
                    args.seconds,
                    args.think,
                    args.web,
                    args.think_model,
                    args.ramp,
                    args.moves,
                )  # fmt: skip
            )
        finally:
            floor.stop()
        wall = time.perf_counter() - wall_before
        applied = ActionRequest.objects.filter(status="applied").count() - applied_before
        print(f"phase 1: {args.games} games of {args.seats} seats (2 people), {args.web} web "
              f"processes, {args.workers} workers, think {args.think} s ({args.think_model}), "
              f"moves by {args.moves}")  # fmt: skip
        cpu_used = {
            name: cpu_seconds(p.pid) - cpu_before[name] for name, p in named(processes, args.web)
        }
        main_used = {
            n: main_thread_cpu_seconds(p.pid) - main_before[n]
            for n, p in named(processes, args.web)
        }
        shares = {name: used / wall for name, used in cpu_used.items()}
        shares["bench clients"] = (time.process_time() - own_before) / wall
        print(
            "  CPU (cores busy on average): "
            + ", ".join(f"{name} {share:.2f}" for name, share in shares.items())
        )
        print("  " + summary("floor ms (trivial Celery task round trip)", floor.samples))
        for key in ("post", "first", "both", "resync", "first connect"):
            label = "move answered (202) ms" if key == "post" else key + " ms"
            line = summary(label, stats[key])
            if key in ("first", "both"):
                line += ratios(stats[key], floor.samples)
            print("  " + line)
        over = sum(1 for ms in stats["both"] if ms > 1000)
        slow = stats["slow sent at"]
        when = f" (moves sent at {', '.join(map(str, slow[:30]))} s into the run)" if slow else ""
        print(f"  deliveries over 1 s (both sockets): {over}{when}")
        print(f"  lost updates: {stats['lost']} (and {stats['superseded']} versions a reconnecting "
              f"socket missed while its hello brought a later one; {stats['before connect']} "
              f"posted before the other seat's first socket opened, not timed); statuses: {stats['status']}; "
              f"moves sent by POST after their socket closed or did not answer: {stats['fallbacks']}; "
              f"socket connections refused or timed out: {stats['connect failures']}")  # fmt: skip
        if args.seconds and applied:
            workers_cpu = sum(v for k, v in cpu_used.items() if k.startswith("worker"))
            web_cpu = sum(v for k, v in cpu_used.items() if k.startswith("web"))
            workers_main = sum(v for k, v in main_used.items() if k.startswith("worker"))
            print(f"  {applied} actions applied ({applied / wall:.1f}/s); CPU per applied action: "
                  f"workers {workers_cpu / applied * 1000:.1f} ms (the floor's pings included; "
                  f"main threads {workers_main / applied * 1000:.1f}: the Celery loop and the "
                  f"tasks; other threads {(workers_cpu - workers_main) / applied * 1000:.1f}: "
                  f"the database pool's), web {web_cpu / applied * 1000:.1f} ms")  # fmt: skip
        if args.latency_only:
            return
        stop(processes[args.web + 1 :])
        processes = processes[: args.web + 1]  # the web processes + one worker
        rest = players[2 * args.games :]
        stop_all_games()

        worker = processes[args.web]
        print(f"  phase 2 worker pid {worker.pid}", flush=True)
        applied0, cpu0 = (
            ActionRequest.objects.filter(status="applied").count(),
            cpu_seconds(worker.pid),
        )
        rate = throughput_phase(rest[:100], 20)
        stop_all_games()
        applied1, cpu1 = (
            ActionRequest.objects.filter(status="applied").count(),
            cpu_seconds(worker.pid),
        )
        per_action = (cpu1 - cpu0) / max(1, applied1 - applied0) * 1000
        print(f"phase 2: {rate:.1f} applied actions/s on ONE worker process (players' actions)")
        print(f"         worker CPU per applied action {per_action:.1f} ms "
              f"(= {1000 / per_action:.0f} actions/s on a core of its own)")  # fmt: skip
        if args.throughput_only:
            return
        cpu0, applied0 = cpu1, applied1
        bots = bot_phase(20)
        applied1, cpu1 = (
            ActionRequest.objects.filter(status="applied").count(),
            cpu_seconds(worker.pid),
        )
        per_action = (cpu1 - cpu0) / max(1, applied1 - applied0) * 1000
        print(f"         {bots:.1f} applied actions/s on ONE worker (20 bot-vs-bot games, played on in batches);"
              f" CPU per action {per_action:.1f} ms")  # fmt: skip
        processes.append(start_beat(db_url))
        late = clock_phase(rest[100:140])
        print("phase 3: " + summary("timeout lateness s", late))
        if late:
            print(f"         median {statistics.median(late):.2f} s")
    finally:
        stop(processes)
        if args.probe:
            print(worker_cpu_probe.report())


if __name__ == "__main__":
    main()

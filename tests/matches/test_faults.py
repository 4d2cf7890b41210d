"""Faults on real services (issue 11): Redis, then PostgreSQL, restarted in the middle of a
game between two players. Each game finishes with every accepted action applied exactly
once, and the pages following it over WebSockets (one open all along, one opened while
the service is down) end at the final version with every event once.

The whole stack runs in processes of its own (uvicorn, a Celery worker with the beat)
against a PRIVATE Redis and PostgreSQL (tests/fault_kit.py), so that restarting them
disturbs nothing else on the machine. (The killed worker: test_worker.py.)
"""

import subprocess
import sys
import threading
import time
from dataclasses import dataclass

import pytest
from fault_kit import PrivatePostgres, PrivateRedis, django_database
from live_kit import LiveSite, prepare, site_env
from service_kit import ROOT, WorkerPool

from .kit import assert_consistent
from .live_play import Page, Players

pytestmark = pytest.mark.postgres

TURN_LIMIT = 8  # the engine stops the game after this turn: a few hundred actions at most

START_MATCH = """
import django, json, sys
django.setup()
from django.contrib.auth import get_user_model
from matches import services
from tournaments.simulation import legal_colony_names
players = [get_user_model().objects.get(username=name) for name in ("alice", "bob")]
colonies = [[c for c in legal_colony_names(f"faults-{seat}") for _ in range(3)] for seat in (0, 1)]
match = services.create_match(players=players, colonies=colonies, seed=int(sys.argv[1]),
                              engine_options={"turn_limit": int(sys.argv[2])})
print(match.pk)
"""


@dataclass
class Stack:
    site: LiveSite
    workers: WorkerPool
    redis: PrivateRedis
    postgres: PrivatePostgres
    database_url: str
    sessions: list  # alice's (seat 0), bob's (seat 1)
    match_id: int


def start_match(env, seed) -> int:
    """A match between alice and bob that the engine stops after TURN_LIMIT turns."""
    command = [sys.executable, "-c", START_MATCH, str(seed), str(TURN_LIMIT)]
    env = {**env, "DJANGO_SETTINGS_MODULE": "cardgame.settings"}
    out = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-3000:]
    return int(out.stdout.split()[-1])


@pytest.fixture
def stack(tmp_path):
    """Private Redis and PostgreSQL; the site migrated, with the cards, two players and
    their match; uvicorn and one Celery worker with the beat (the sweep) on them."""
    with PrivateRedis() as redis, PrivatePostgres() as postgres:
        url = postgres.create_database("kgk_faults")
        # KGK_ASSIST=0: the site takes no decision for a player (matches/assist.py), so the
        # players' plan stays one request per version, as the faults' checks compare it
        env = site_env(url, REDIS_URL=redis.url, DATABASE_POOL="1", CELERY_VISIBILITY_TIMEOUT="5",
                       KGK_ASSIST="0")  # fmt: skip
        env.pop("CELERY_TASK_ALWAYS_EAGER", None)
        sessions = prepare(env, ["alice", "bob"], migrate=True)
        match_id = start_match(env, seed=61)
        workers = WorkerPool(env, tmp_path, name="faults")
        with LiveSite(env, tmp_path) as site:
            try:
                workers.start(beat=True)
                players = [sessions["alice"], sessions["bob"]]
                yield Stack(site, workers, redis, postgres, url, players, match_id)
            finally:
                workers.stop_all()


class Outage:
    """A service stopped once the game reaches version `at`, just before a player sends
    an action (so that the action meets the outage), and started again `down_for` seconds
    later. While playing: the players go on meanwhile. Otherwise everybody waits: the
    connections the site and the worker hold go stale unused, as on a quiet night."""

    def __init__(self, service, at, down_for, while_playing):
        self.service, self.at, self.down_for = service, at, down_for
        self.while_playing = while_playing
        self.version = None  # the game's version when the service went down
        self.stopping_at = self.up_at = None  # time.monotonic(): the window of the outage
        self.thread = threading.Thread(target=self.come_back, daemon=True)

    def due(self, state) -> bool:
        return self.version is None and state["version"] >= self.at

    def __call__(self, state):
        if self.due(state):
            self.version = state["version"]
            self.stopping_at = time.monotonic()
            self.service.stop()
            if self.while_playing:
                self.thread.start()
            else:
                self.come_back()

    def come_back(self):
        time.sleep(self.down_for)
        self.service.start()
        self.up_at = time.monotonic()

    def join(self):
        assert self.version is not None, "the game ended before the restart"
        if self.while_playing:
            self.thread.join(timeout=120)
            assert not self.thread.is_alive(), "the service did not come back"

    def covers(self, moment) -> bool:
        return self.stopping_at <= moment <= self.up_at


def play_through(stack, outages):
    """The whole game, the services restarted in its middle. Bob's page watches from the
    start; alice's is opened while the first outage is on (a page loaded, or a socket
    reconnecting, while the service is down)."""
    pages = [Page(stack.site, stack.sessions[1], stack.match_id).start()]
    players = Players(stack.site, stack.sessions, stack.match_id, seed=7)

    def before_move(state):
        for outage in outages:
            if outage.due(state) and not outage.while_playing:
                # everybody waits, the pages too: they have followed the game since the
                # last restart (a socket left open but deaf would not)
                for page in pages:
                    assert page.catch_up(state["version"], timeout=30), "a page fell behind"
                players.crowd()  # a busy site: many idle connections that the restart kills
            outage(state)
        if outages[0].version is not None and len(pages) == 1:
            pages.append(Page(stack.site, stack.sessions[0], stack.match_id).start())

    final = players.play(before_move=before_move)
    for outage in outages:
        outage.join()
    for page in pages:
        page.catch_up(final["version"])
        page.close()
    return players, pages, final


def after_outages(outages, moments) -> list[str]:
    """The moments that no outage covers, as seconds after the last outage ended."""
    last = max(o.up_at for o in outages)
    return [f"{t - last:+.2f} s" for t in moments if not any(o.covers(t) for o in outages)]


def assert_nothing_lost_or_twice(stack, outages, players, pages, final, blocker):
    from matches.models import ActionRequest, Match

    assert final["status"] == "finished"
    assert all(outage.version < final["version"] for outage in outages)  # the game went on
    # "try again" only while a service was down: once it is back, every connection the
    # site holds works again (no stale pooled connection fails a request)
    assert not after_outages(outages, players.unavailable), "503 once the service was back"
    for page in pages:  # a socket is taken at its first attempt once the service is back
        assert not after_outages(outages, page.refused), "a socket refused once it was back"
    with blocker.unblock(), django_database(stack.database_url) as db:
        match = Match.objects.using(db).get(pk=stack.match_id)
        assert_consistent(match)  # versions 1..N once each, events 1..seq, the replay
        rows = ActionRequest.objects.using(db).filter(match=match)
        assert not rows.filter(status="pending").exists()
        applied = rows.filter(status="applied").order_by("applied_version")
        # exactly the actions the players were told were taken, each once, in order
        taken = [(r.client_action_id, r.seat, r.applied_version - 1, r.action) for r in applied]
        assert taken == players.accepted
    for page in pages:
        assert (page.version, page.status) == (match.version, "finished")  # it resynced
        assert page.seqs == list(range(1, match.seq + 1))  # its log: every event, once
    assert stack.site.process.poll() is None, "the web process died"
    assert all(p.poll() is None for p in stack.workers.processes), "the worker died"


def test_redis_restarted_mid_game_loses_and_duplicates_nothing(stack, django_db_blocker):
    """Redis goes down and comes back EMPTY (no persistence): the queued drains, the socket
    groups and the cache are gone. The worker and the site reconnect, the sweep re-queues
    the stored actions, the page reconnects and resyncs."""
    outages = [
        Outage(stack.redis, at=15, down_for=3.0, while_playing=True),
        Outage(stack.redis, at=50, down_for=0.5, while_playing=False),
    ]
    players, pages, final = play_through(stack, outages)
    # an action was taken while Redis was down: stored, its drain not queued (202 pending)
    assert any(outages[0].covers(sent) for sent, _ in players.latency)
    assert_nothing_lost_or_twice(stack, outages, players, pages, final, django_db_blocker)


def test_postgresql_restarted_mid_game_loses_and_duplicates_nothing(stack, django_db_blocker):
    """PostgreSQL stops (cutting every connection) and starts again on the same data: the
    pooled connections of the site and the worker are broken; answers in between are 503
    and are sent again with the same client_action_id."""
    outages = [
        Outage(stack.postgres, at=15, down_for=12.0, while_playing=True),
        Outage(stack.postgres, at=50, down_for=1.0, while_playing=False),
    ]
    players, pages, final = play_through(stack, outages)
    # longer than the pool's 10 s wait for a connection: the players met 503s
    assert players.unavailable
    assert_nothing_lost_or_twice(stack, outages, players, pages, final, django_db_blocker)

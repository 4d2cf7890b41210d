"""Fixtures of the matches tests; `celery_worker_process` is reusable by other apps' tests
(docs/matches-api.md says how)."""

import pytest

from .kit import make_deck


@pytest.fixture
def players(catalogue, django_user_model):
    alice = django_user_model.objects.create_user("alice", password="pw-alice-123")
    bob = django_user_model.objects.create_user("bob", password="pw-bob-123")
    return alice, bob


@pytest.fixture
def decks(players):
    alice, bob = players
    return make_deck(alice, seed=1, name="Alice colony"), make_deck(bob, seed=2, name="Bob colony")


# --- a real Celery worker on Redis and the PostgreSQL test database ------------------------

import os  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from service_kit import database_url, service_missing  # noqa: E402

TEST_REDIS_URL = os.environ.get("KGK_TEST_REDIS_URL", "redis://127.0.0.1:6379/1")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def redis_url():
    """Redis DB 1 (the matches tests' own), emptied; skip/fail (CI) when Redis is down."""
    import redis

    try:
        client = redis.Redis.from_url(TEST_REDIS_URL, socket_connect_timeout=2)
        client.ping()
    except redis.RedisError as exc:
        service_missing(f"needs Redis at {TEST_REDIS_URL}: {exc}")
    client.flushdb()
    return TEST_REDIS_URL


class WorkerPool:
    """Starts and stops real `celery -A cardgame worker` processes (one task at a time each)."""

    def __init__(self, env, log_dir: Path):
        self.env = env
        self.log_dir = log_dir
        self.processes = []

    def start(self, beat=False, ready_timeout=60):
        index = len(self.processes)
        log = self.log_dir / f"worker{index}.log"
        command = [sys.executable, "-m", "celery", "-A", "cardgame", "worker", "--pool=solo",
                   "--loglevel=INFO", "-n", f"matches{index}-{os.getpid()}@%h",
                   "--without-gossip", "--without-mingle"]  # fmt: skip
        if beat:
            command += ["--beat", "-s", str(self.log_dir / f"beat{index}")]
        out = open(log, "w")  # noqa: SIM115 (closed with the process)
        process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=out, stderr=out)
        process.log_path = log
        self.processes.append(process)
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if "ready." in log.read_text():
                return process
            if process.poll() is not None:
                break
            time.sleep(0.2)
        raise RuntimeError(f"the worker did not start:\n{log.read_text()[-3000:]}")

    def kill(self, process):
        """SIGKILL by pid: the worker dies in the middle of whatever it does."""
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def stop_all(self):
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


@pytest.fixture
def celery_worker_process(transactional_db, redis_url, settings, tmp_path):
    """A real worker process against the pytest-django TEST database and Redis DB 1.

    The test process's own Celery sends to the same broker (no eager mode) and its channel
    layer is Redis too, so what the worker pushes reaches the test's sockets. Use with
    `@pytest.mark.postgres`. Yields a WorkerPool with one worker started; `.start()` adds
    one, `.kill(process)` kills one by pid.
    """
    from django.db import connection

    from cardgame.celery import app

    if connection.vendor != "postgresql":
        service_missing("needs PostgreSQL: run with DATABASE_URL=postgres://...")
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection),
        "REDIS_URL": redis_url,
        "DATABASE_POOL": "1",  # as in production (README): the pooled connections
        "CELERY_VISIBILITY_TIMEOUT": "5",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager", "result_backend")}
    saved_transport = dict(app.conf.broker_transport_options or {})
    app.conf.update(
        broker_url=redis_url,
        task_always_eager=False,
        result_backend=None,
        broker_transport_options={"visibility_timeout": 5},
    )
    app._after_fork()  # forget connection pools made for the eager configuration
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url]},
        }
    }
    pool = WorkerPool(env, tmp_path)
    try:
        pool.start()
        yield pool
    finally:
        pool.stop_all()
        app.conf.update(**saved, broker_transport_options=saved_transport)
        app._after_fork()

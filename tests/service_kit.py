"""What every test that needs a real service shares: skip it (or fail under CI=true) when
the service is absent, and the test database's URL for the processes a test starts.

A plain module, importable from any test folder: tests/conftest.py puts tests/ on the path
(--import-mode=importlib does not).
"""

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

IN_CI = os.environ.get("CI") == "true"


def service_missing(reason: str):
    """Skip a test whose service is absent here; under CI=true that is a failure."""
    if IN_CI or os.environ.get("KGK_REQUIRE_POSTGRES"):
        pytest.fail(f"{reason} (CI=true: a missing service is a failure, not a skip)")
    pytest.skip(reason)


def database_url(connection) -> str:
    """postgres:// URL of the pytest-django TEST database (for a worker or server process)."""
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def redis_db(url: str) -> str:
    """A Redis database of the tests' own, emptied; skip (fail under CI) when Redis is down."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2)
        client.ping()
    except redis.RedisError as exc:
        service_missing(f"needs Redis at {url}: {exc}")
    client.flushdb()
    return url


class WorkerPool:
    """Starts and stops real `celery -A cardgame worker` processes (one task at a time each)."""

    def __init__(self, env, log_dir: Path, name="matches"):
        self.env = env
        self.log_dir = log_dir
        self.name = name  # the workers' node names: <name><index>-<pid>@host
        self.processes = []

    def start(self, beat=False, ready_timeout=60):
        index = len(self.processes)
        log = self.log_dir / f"worker{index}.log"
        command = [sys.executable, "-m", "celery", "-A", "cardgame", "worker", "--pool=solo",
                   "--loglevel=INFO", "-n", f"{self.name}{index}-{os.getpid()}@%h",
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


@contextmanager
def workers_on(settings, redis_url: str, log_dir: Path, name: str, env=None, transport=None):
    """Real Celery worker processes on the pytest-django TEST database (PostgreSQL) and Redis
    at `redis_url`: the test process's Celery sends to the same broker (not eager) and its
    channel layer is the same Redis, so what a worker pushes reaches the test's sockets.
    Yields a WorkerPool with none started yet (`.start()` starts one). `env` adds to the
    workers' environment; `transport`: broker transport options for both sides."""
    from django.db import connection

    from cardgame.celery import app

    if connection.vendor != "postgresql":
        service_missing("needs PostgreSQL: run with DATABASE_URL=postgres://...")
    environment = {
        **os.environ,
        "DATABASE_URL": database_url(connection),
        "REDIS_URL": redis_url,
        "DATABASE_POOL": "1",  # as in production (README): the pooled connections
        "PYTHONPATH": str(ROOT),
        **(env or {}),
    }
    environment.pop("CELERY_TASK_ALWAYS_EAGER", None)
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager", "result_backend")}
    saved_transport = dict(app.conf.broker_transport_options or {})
    app.conf.update(broker_url=redis_url, task_always_eager=False, result_backend=None)
    if transport is not None:
        app.conf.broker_transport_options = transport
    app._after_fork()  # forget connection pools made for the eager configuration
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "cardgame.channel_layer.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url]},
        }
    }
    pool = WorkerPool(environment, log_dir, name=name)
    try:
        yield pool
    finally:
        pool.stop_all()
        app.conf.update(**saved, broker_transport_options=saved_transport)
        app._after_fork()

"""A real Celery worker process for the tournament simulation test (Redis DB 3), and the
path that lets the tournaments tests import their helper module (tournament_kit.py).

The matches tests' `celery_worker_process` (tests/matches/conftest.py) is bound to Redis
DB 1 at import time and its module cannot be imported from here (it imports a sibling by a
relative import), so this is the same recipe on the tournaments' own Redis DB 3.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

TEST_REDIS_URL = os.environ.get("KGK_TOURNAMENTS_REDIS_URL", "redis://127.0.0.1:6379/3")
ROOT = Path(__file__).resolve().parents[2]
HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:  # --import-mode=importlib does not put a test's folder on the path
    sys.path.insert(0, HERE)


from service_kit import database_url, service_missing  # noqa: E402


def tournaments_redis_url():
    """Redis DB 3, emptied; skip (fail under CI) when Redis is down."""
    import redis

    try:
        client = redis.Redis.from_url(TEST_REDIS_URL, socket_connect_timeout=2)
        client.ping()
    except redis.RedisError as exc:
        service_missing(f"needs Redis at {TEST_REDIS_URL}: {exc}")
    client.flushdb()
    return TEST_REDIS_URL


def _start_worker(env, log: Path, ready_timeout=90):
    command = [sys.executable, "-m", "celery", "-A", "cardgame", "worker", "--pool=solo",
               "--loglevel=INFO", "-n", f"tournaments-{os.getpid()}@%h",
               "--without-gossip", "--without-mingle",
               # the beat's clock sweep re-queues a bot move lost to a failed task (e.g. the
               # database refusing a connection), as it does in production (README)
               "--beat", "-s", str(log.parent / "beat-schedule")]  # fmt: skip
    out = open(log, "w")  # noqa: SIM115 (closed with the process)
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)
    deadline = time.monotonic() + ready_timeout
    while time.monotonic() < deadline:
        if "ready." in log.read_text():
            return process
        if process.poll() is not None:
            break
        time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"the worker did not start:\n{log.read_text()[-3000:]}")


@pytest.fixture
def tournament_worker(transactional_db, settings, tmp_path):
    """One real `celery -A cardgame worker --beat` on the pytest-django TEST database and Redis
    DB 3; the test process's Celery sends to the same broker (not eager). Yields the log
    path. Use with `@pytest.mark.postgres`."""
    from django.db import connection

    from cardgame.celery import app

    if connection.vendor != "postgresql":  # checked first: Redis is not touched then
        service_missing("needs PostgreSQL: run with DATABASE_URL=postgres://...")
    redis_url = tournaments_redis_url()
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection),
        "REDIS_URL": redis_url,
        "DATABASE_POOL": "1",  # as in production (README)
        "PYTHONPATH": str(ROOT),
    }
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager", "result_backend")}
    app.conf.update(broker_url=redis_url, task_always_eager=False, result_backend=None)
    app._after_fork()  # forget connection pools made for the eager configuration
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url]},
        }
    }
    log = tmp_path / "worker.log"
    process = _start_worker(env, log)
    try:
        yield log
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        app.conf.update(**saved)
        app._after_fork()

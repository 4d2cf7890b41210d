"""A real Celery worker process for the tournament simulation test (Redis DB 3), and the
path that lets the tournaments tests import their helper module (tournament_kit.py).

The worker process comes from tests/service_kit.py's WorkerPool, as the matches tests'
does; this fixture points it at the tournaments' own Redis DB 3 and adds the beat.
"""

import os
import sys
from pathlib import Path

import pytest

TEST_REDIS_URL = os.environ.get("KGK_TOURNAMENTS_REDIS_URL", "redis://127.0.0.1:6379/3")
ROOT = Path(__file__).resolve().parents[2]
HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:  # --import-mode=importlib does not put a test's folder on the path
    sys.path.insert(0, HERE)


from service_kit import WorkerPool, database_url, redis_db, service_missing  # noqa: E402


@pytest.fixture
def tournament_worker(transactional_db, settings, tmp_path):
    """One real `celery -A cardgame worker --beat` on the pytest-django TEST database and Redis
    DB 3; the test process's Celery sends to the same broker (not eager). Yields the log
    path. Use with `@pytest.mark.postgres`."""
    from django.db import connection

    from cardgame.celery import app

    if connection.vendor != "postgresql":  # checked first: Redis is not touched then
        service_missing("needs PostgreSQL: run with DATABASE_URL=postgres://...")
    redis_url = redis_db(TEST_REDIS_URL)
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection),
        "REDIS_URL": redis_url,
        "DATABASE_POOL": "1",  # as in production (README)
        "PYTHONPATH": str(ROOT),
        # the per-task lines (WARNING by default, README): the log shows which tasks it ran
        "CELERY_TASK_LOG_LEVEL": "INFO",
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
    # --beat: the clock sweep re-queues a bot move lost to a failed task (e.g. the database
    # refusing a connection), as it does in production (README)
    pool = WorkerPool(env, tmp_path, name="tournaments")
    try:
        yield pool.start(beat=True, ready_timeout=90).log_path
    finally:
        pool.stop_all()
        app.conf.update(**saved)
        app._after_fork()

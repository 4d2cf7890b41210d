"""A real Celery worker process for the tournament simulation test (Redis DB 3), and the
path that lets the tournaments tests import their helper module (tournament_kit.py).

The worker process comes from tests/service_kit.py's WorkerPool, as the matches tests'
does; this fixture points it at the tournaments' own Redis DB 3 and adds the beat.
"""

import os
import sys
from pathlib import Path

import pytest
from django.db import connection

TEST_REDIS_URL = os.environ.get("KGK_TOURNAMENTS_REDIS_URL", "redis://127.0.0.1:6379/3")
ROOT = Path(__file__).resolve().parents[2]
HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:  # --import-mode=importlib does not put a test's folder on the path
    sys.path.insert(0, HERE)


from service_kit import redis_db, service_missing, workers_on  # noqa: E402


@pytest.fixture
def tournament_worker(transactional_db, settings, tmp_path):
    """One real `celery -A cardgame worker --beat` on the pytest-django TEST database and Redis
    DB 3; the test process's Celery sends to the same broker (not eager). Yields the log
    path. Use with `@pytest.mark.postgres`."""
    if connection.vendor != "postgresql":  # checked first: Redis is not touched then
        service_missing("needs PostgreSQL: run with DATABASE_URL=postgres://...")
    # the per-task lines (WARNING by default, README): the log shows which tasks it ran
    log_per_task = {"CELERY_TASK_LOG_LEVEL": "INFO"}
    with workers_on(
        settings, redis_db(TEST_REDIS_URL), tmp_path, "tournaments", log_per_task
    ) as pool:
        # --beat: the clock sweep re-queues a bot move lost to a failed task (e.g. the
        # database refusing a connection), as it does in production (README)
        yield pool.start(beat=True, ready_timeout=90).log_path

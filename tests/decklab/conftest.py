import os
from pathlib import Path

import pytest

from decks import services as deck_services

LACI = ["xeno", "insectoid", "zarg", "space_shark"]  # R 20 EX-1


def legal_colony(races=LACI):
    """(code, count) pairs: the engine's colony builder, 15 names x 3 (R 9.1, 9.2)."""
    from engine.colonies import build_colony, load_cards

    counts = {}
    for card in build_colony(load_cards(), races):
        counts[card["code"]] = counts.get(card["code"], 0) + 1
    return sorted(counts.items())


@pytest.fixture(autouse=True)
def lab_plays_in_the_test(settings):
    """The lab's logic tests run a run's chunks at commit, in the test's own thread (the
    embedded default's background thread could not see the test's uncommitted rows);
    test_lab_background.py runs a real server to test that thread."""
    settings.DECKLAB_PLAY_IN_REQUEST = True


@pytest.fixture
def lab_deck(catalogue, alice):
    return deck_services.save_deck(alice, name="Laci lab", cards=legal_colony(), is_public=True)


@pytest.fixture
def illegal_deck(catalogue, alice):
    """Human and Xeno together: an opposing pair (R 9.3), and only 30 cards (R 9.1)."""
    cards = legal_colony(["human", "insectoid"])[:5] + legal_colony(["xeno", "zarg"])[:5]
    return deck_services.save_deck(alice, name="Broken", cards=cards, is_public=False)


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """Run on_commit callbacks (the queued chunks) when the block ends, as a real commit would."""
    return django_capture_on_commit_callbacks


# ------------------------------------------------------------------ real Celery workers


from service_kit import database_url, redis_db, service_missing  # noqa: E402

# the deck lab tests' own Redis database (KGK_TEST_REDIS_URL: one of your own, as matches')
WORKER_REDIS = os.environ.get("KGK_TEST_REDIS_URL", "redis://127.0.0.1:6379/2")


def _wait_ready(log_path, proc, timeout=60):
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"worker exited: {log_path.read_text()[-2000:]}")
        if " ready." in log_path.read_text(errors="replace"):
            return
        time.sleep(0.2)
    raise RuntimeError(f"worker not ready after {timeout}s: {log_path.read_text()[-2000:]}")


def _forget_connections(app):
    """Producer pools made for the previous broker (e.g. by an earlier test's publish to the
    in-memory one) must not be reused after the broker URL changes."""
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def lab_workers(transactional_db, tmp_path):
    """Start `n` real `celery -A cardgame worker` processes on the test database and Redis DB 2,
    and switch this process's Celery from eager to that broker. Stopped by pid afterwards."""
    import os
    import subprocess
    import sys

    from django.db import connection

    from cardgame.celery import app

    if connection.vendor != "postgresql":
        service_missing("needs PostgreSQL (a worker process cannot share SQLite's test DB)")
    redis_db(WORKER_REDIS)
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection),
        "REDIS_URL": WORKER_REDIS,
        "DATABASE_POOL": "1",
    }
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    celery = str(Path(sys.executable).with_name("celery"))
    procs = []
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager", "result_backend")}
    app.conf.update(broker_url=WORKER_REDIS, task_always_eager=False, result_backend=None)
    _forget_connections(app)

    def start(n=1):
        for _ in range(n):
            log = tmp_path / f"worker{len(procs)}.log"
            proc = subprocess.Popen(
                [celery, "-A", "cardgame", "worker", "-c", "1", "--prefetch-multiplier=1",
                 "--without-mingle", "--without-gossip", "-l", "info",
                 "-n", f"lab{len(procs)}-{os.getpid()}@%h"],
                cwd=str(Path(__file__).resolve().parents[2]),
                env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
            )  # fmt: skip
            procs.append((proc, log))
        for proc, log in procs[-n:]:
            _wait_ready(log, proc)
        return [proc.pid for proc, _ in procs]

    yield start
    for proc, _log in procs:
        proc.terminate()
    for proc, _log in procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    app.conf.update(saved)
    _forget_connections(app)

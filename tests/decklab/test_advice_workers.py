"""Deck advice on a real Celery worker process (PostgreSQL + Redis): the run is played by
the worker, its progress lands on the page's row while it plays, and a cancel stops it."""

import time

import pytest

from decklab import advising
from decklab.models import AdviceRun

pytestmark = pytest.mark.postgres


def wait_until(run, done, timeout=180):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if done(run):
            return run
        time.sleep(0.3)
    raise AssertionError(f"advice run {run.pk} still {run.status} after {timeout}s")


def test_a_worker_plays_the_advice_and_a_cancel_stops_it(lab_workers, lab_deck, alice):
    lab_workers(1)
    run = advising.start_advice(alice, lab_deck, budget=advising.MIN_BUDGET)
    wait_until(run, lambda r: r.games_played > 0)  # the worker's progress, while it plays
    assert run.status == AdviceRun.RUNNING and run.candidates
    assert advising.cancel(run)
    wait_until(run, lambda r: not r.active, timeout=60)
    assert run.status == AdviceRun.CANCELLED, run.error
    assert 0 < run.games_played < run.budget
    assert not advising.cancel(run)  # nothing left to stop

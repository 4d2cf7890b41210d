"""Deck lab on real Celery worker processes (PostgreSQL + Redis DB 2): a run's chunks are
shared by two workers, and a run survives a worker killed by its pid mid-run."""

import os
import signal
import time

import pytest

from decklab import services
from decklab.models import LabChunk, LabRun
from decklab.selectors import run_results

pytestmark = pytest.mark.postgres


def wait_for(run, status=LabRun.DONE, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if run.status in (status, LabRun.FAILED):
            return run
        time.sleep(0.3)
    raise AssertionError(f"run {run.pk} still {run.status} after {timeout}s: {run_results(run)}")


def test_two_workers_share_a_run(lab_workers, lab_deck, alice):
    lab_workers(2)
    run = services.start_run(alice, lab_deck, 200)  # 8 chunks of 25
    wait_for(run)
    result = run_results(run)
    assert run.status == LabRun.DONE, run.error
    assert result["done"] == 200 and result["chunks_done"] == result["chunks"] == 8
    assert result["workers"] == 2, "both worker processes played some chunks"
    assert sum(o["played"] for o in result["opponents"]) == 200


def test_a_worker_killed_mid_run_loses_and_doubles_nothing(lab_workers, lab_deck, alice):
    """acks_late + reject_on_worker_lost: the killed worker's chunk is delivered again."""
    victim, survivor = lab_workers(2)
    run = services.start_run(alice, lab_deck, 300)  # 12 chunks
    deadline = time.monotonic() + 60
    while not run.chunks.filter(status=LabChunk.DONE).exists():
        assert time.monotonic() < deadline, "no chunk finished"
        time.sleep(0.1)
    os.kill(victim, signal.SIGKILL)
    wait_for(run, timeout=180)
    result = run_results(run)
    assert run.status == LabRun.DONE, run.error
    assert result["done"] == 300  # every game once: no chunk lost, none counted twice
    assert result["chunks_done"] == 12

"""The embedded default has no beat: the site process runs the decklist-deadline sweep on a
thread of its own (notifications/embedded_beat.py), only where matches' embedded clock would
run (eager Celery, not turned off), once per process."""

import threading

from notifications import embedded_beat


def test_the_sweep_runs_on_a_thread_only_in_the_embedded_default(settings, monkeypatch):
    swept = threading.Event()
    monkeypatch.setattr(embedded_beat, "decklist_deadlines", swept.set)

    settings.MATCHES_EMBEDDED_CLOCK = False  # as in every test: a broker's beat would sweep
    assert embedded_beat.start_if_wanted(interval=0.01) is False

    settings.MATCHES_EMBEDDED_CLOCK, settings.CELERY_TASK_ALWAYS_EAGER = True, True
    try:
        assert embedded_beat.start_if_wanted(interval=0.01) is True
        assert embedded_beat.start_if_wanted(interval=0.01) is False  # one thread a process
        assert swept.wait(5)
    finally:
        embedded_beat.stop()

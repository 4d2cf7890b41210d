"""The decklist-deadline sweep inside the site process, for the embedded default.

With Redis, `celery beat` queues `notifications.tasks.warn_decklist_deadlines` every five
minutes (cardgame/settings.py). Without a broker there is no beat: the web process runs the
same sweep on a daemon thread, started by cardgame/asgi.py when matches' embedded clock
would run (`matches.embedded_clock.wanted`: eager Celery, not turned off). Two site
processes on one database may both sweep: each warning is stored once per event and
person (the unique `key`), so the second finds nothing to do.
"""

import logging
import threading

from django.db import connection

from matches.embedded_clock import wanted

from .sources import decklist_deadlines

log = logging.getLogger(__name__)

INTERVAL = 300.0  # seconds, as the beat's schedule

_lock = threading.Lock()
_stopping: threading.Event | None = None


def _run(stopping: threading.Event, interval: float) -> None:
    while not stopping.wait(interval):
        try:
            decklist_deadlines()
        except Exception:  # a locked database: the next round tries again
            log.exception("the decklist-deadline sweep failed; retrying in %s s", interval)
        finally:
            connection.close()


def start_if_wanted(interval: float = INTERVAL) -> bool:
    """Start the sweeping thread in the embedded default, once per process."""
    global _stopping
    if not wanted():
        return False
    with _lock:
        if _stopping is not None:
            return False
        _stopping = threading.Event()
        threading.Thread(
            target=_run, args=(_stopping, interval), name="notifications-beat", daemon=True
        ).start()
    return True


def stop() -> None:
    global _stopping
    with _lock:
        if _stopping is not None:
            _stopping.set()
        _stopping = None

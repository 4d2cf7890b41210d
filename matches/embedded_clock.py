"""The clock sweep inside the site process, for the embedded default (no Redis, no beat).

With Redis, `celery beat` runs `matches.tasks.check_clocks` every second. Without it (`make
run`) nothing would: a game would hang when a player leaves, and a bot move lost to a busy
database would never come back. So the web process runs the very same `sweep()` on a daemon
thread, started by cardgame/asgi.py (daphne, and `manage.py runserver`, which is daphne's),
never by management commands or tests (a test starts it itself), never when a broker is
configured (then the beat is the one scheduler).

Guards: one thread per process (a lock), and one sweeper per database at a time (an
exclusive lock on a file beside the SQLite file; a PostgreSQL advisory lock), so two site
processes on one SQLite file do not both sweep. A tick that fails (a locked database) is
logged and the next one tries again: the sweep is idempotent.
"""

import atexit
import contextlib
import fcntl
import logging
import threading
import zlib

from django.conf import settings
from django.db import connection

from .clocks_sweep import sweep

log = logging.getLogger(__name__)

INTERVAL = 1.0  # seconds between sweeps, as the beat's schedule (cardgame/settings.py)
ADVISORY_KEY = zlib.crc32(b"matches.embedded_clock")

_lock = threading.Lock()
_thread: "_Sweeper | None" = None


class _Sweeper(threading.Thread):
    """The sweeping thread, with a stop signal of its own: a shared event that the next
    start() cleared would wake a thread that was told to stop and had not yet seen it, and
    two threads would sweep (a test's flush then met the old one's locks)."""

    def __init__(self, interval: float):
        super().__init__(name="matches-embedded-clock", daemon=True)
        self.interval = interval
        self.stopping = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopping.wait(self.interval):
                tick()
        finally:
            _close_own_connection()


def wanted() -> bool:
    """Only in the embedded default: tasks run eagerly, so no worker and no beat exist.
    MATCHES_EMBEDDED_CLOCK = False turns it off."""
    eager = bool(getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False))
    return eager and getattr(settings, "MATCHES_EMBEDDED_CLOCK", True)


def start_if_wanted() -> bool:
    """The site process's entry: start the thread in the embedded default only."""
    return start() if wanted() else False


def start(interval: float = INTERVAL) -> bool:
    """Start the sweeping thread unless it runs already; True if this call started it."""
    global _thread
    with _lock:
        if _thread is not None and _thread.is_alive():
            return False
        _thread = _Sweeper(interval)
        _thread.start()
    return True


def stop(timeout: float | None = None) -> bool:
    """Stop the thread and wait for it to end: a sweep under way finishes first, and it
    may run eager tasks (a bot's moves), so by default there is no time limit. True if no
    sweeping thread is left."""
    global _thread
    with _lock:
        thread, _thread = _thread, None
    if thread is None:
        return True
    thread.stopping.set()
    if thread is not threading.current_thread():
        thread.join(timeout)
    return not thread.is_alive()


def running() -> bool:
    return _thread is not None and _thread.is_alive()


atexit.register(stop, timeout=10.0)  # the process ends even if a sweep hangs


def tick() -> dict | None:
    """One sweep if this process holds the database's sweeper lock; None otherwise."""
    try:
        with _sweeper_lock() as mine:
            return sweep() if mine else None
    except Exception:  # e.g. "database is locked": the next tick tries again
        log.exception("the embedded clock sweep failed; retrying in %s s", INTERVAL)
        return None
    finally:
        if connection.vendor == "sqlite":
            _close_own_connection()  # release SQLite's file handles and locks between ticks


def _close_own_connection() -> None:
    """This thread's database connection, closed for real. Django ignores close() on an
    in-memory SQLite database (closing the only connection would destroy it); the tests'
    one is shared-cache and their own connection keeps it alive, and this thread's second
    connection, left open, kept its table locks until the garbage collector came by."""
    raw = connection.connection
    if connection.vendor == "sqlite" and connection.is_in_memory_db() and raw is not None:
        connection.connection = None
        raw.close()
    else:
        connection.close()


@contextlib.contextmanager
def _sweeper_lock():
    """True while this process may sweep: one sweeper per database at a time."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [ADVISORY_KEY])
            mine = cursor.fetchone()[0]
        try:
            yield mine
        finally:
            if mine:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s)", [ADVISORY_KEY])
        return
    path = _sqlite_file()
    if path is None:  # an in-memory database is one process's own
        yield True
        return
    with open(f"{path}.clock-lock", "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _sqlite_file() -> str | None:
    name = str(connection.settings_dict.get("NAME") or "")
    if connection.vendor != "sqlite" or not name or "mode=memory" in name or name == ":memory:":
        return None
    return name

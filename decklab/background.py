"""Where the deck lab's games go (`dispatch`: the lab's runs and deck advice alike), and the
embedded default's lab worker: one daemon thread per process plays queued chunks.

With Celery eager (no REDIS_URL) a queued task runs inside the request that queued it, so a
5,000-game run held its POST for minutes. Here the request only queues the chunk ids; this
thread plays them one by one (each stored as it finishes, so the progress bar moves), on a
database connection of its own. With REDIS_URL the chunks go to Celery workers instead
(`dispatch`) and the thread is never started.
"""

import logging
import queue
import threading

from django.conf import settings
from django.db import connection

logger = logging.getLogger(__name__)

_chunks: queue.Queue = queue.Queue()
_started = threading.Lock()
_thread: threading.Thread | None = None


def dispatch(task, ids, *, priority: int | None = None, local=None) -> None:
    """Queue the Celery `task` once per id: to the workers (at `priority` when given); in
    the embedded default (eager Celery) to this module's thread, never into the request (or
    the chunk) that queued it; in the logic tests (DECKLAB_PLAY_IN_REQUEST) in the caller's
    own thread. `local`: what the thread and the tests call with an id instead of the
    task's body (the lab's chunk without the workers' claim: one thread plays it once)."""
    ids = list(ids)
    if not task.app.conf.task_always_eager:
        options = {} if priority is None else {"priority": priority}
        for pk in ids:
            task.apply_async((pk,), **options)
        return
    play = local or task.run
    if settings.DECKLAB_PLAY_IN_REQUEST:  # tests of the logic only
        for pk in ids:
            play(pk)
    else:
        submit(ids, play)


def submit(chunk_ids, play) -> None:
    """Queue chunks for `play(chunk_id)` on the background thread (started on first use)."""
    global _thread
    for chunk_id in chunk_ids:
        _chunks.put((play, chunk_id))
    with _started:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_work, name="decklab-background", daemon=True)
            _thread.start()


def _work() -> None:
    while True:
        play, chunk_id = _chunks.get()
        try:
            play(chunk_id)
        except Exception:  # the run is marked failed by play itself; keep the thread alive
            logger.exception("background lab chunk %s failed", chunk_id)
        finally:
            if _chunks.empty():
                connection.close()  # idle: give the connection back (SQLite file, WAL)
            _chunks.task_done()

"""Queuing the matches app's Celery tasks (matches/tasks.py) from the code they run.

The tasks call the services (a drain, a bot's move, a default move) and the services queue
the next task (a drain after a stored move, a bot's move after a commit): a loop, if each
imported the other. So the services name a task here (`send("drain_match", match_id)`)
and Celery's registry finds it; matches/apps.py imports matches/tasks.py when the app is
ready, which registers the tasks in every process (web, worker, tests).

`enqueue` sends a task to the broker; in the embedded default (eager Celery) it runs the
tasks one after another in a loop instead of recursing, so a bot-against-bot game does not
nest hundreds of on_commit callbacks. There a task that meets a busy database is left to
the clock sweep (matches/embedded_clock.py) instead of failing the request that queued it:
what it would have done (drain, bot move, default move) is still due, and the sweep finds
it, as it finds a task lost with a dead worker.
"""

import logging
import threading

from celery import current_app
from django.db import OperationalError

log = logging.getLogger(__name__)
_local = threading.local()
TASKS_MODULE = "matches.tasks"


def registered(name: str):
    """The registered task `matches.tasks.<name>`."""
    return current_app.tasks[f"{TASKS_MODULE}.{name}"]


def send(name: str, *args) -> None:
    """Queue the task `matches.tasks.<name>` with `args` (ids)."""
    enqueue(registered(name), *args)


def enqueue(task, *args) -> None:
    if not task.app.conf.task_always_eager:
        # the tasks take ids: their repr is the one Celery's saferepr would write, without
        # its ~0.1 ms of CPU on the path of every move (bench/RESULTS.md, issue 16)
        task.apply_async(args, argsrepr=repr(args), kwargsrepr="{}")
        return
    queue = getattr(_local, "queue", None)
    if queue is not None:  # already inside the loop below: run after the current task
        queue.append((task, args))
        return
    _local.queue = queue = [(task, args)]
    try:
        while queue:
            next_task, next_args = queue.pop(0)
            _run_eagerly(next_task, next_args)
    finally:
        _local.queue = None


def _run_eagerly(task, args) -> None:
    try:
        task.apply(args=args, throw=True)
    except OperationalError:  # committed work stands; the sweep retries this task
        log.warning("%s%r met a busy database; the clock sweep retries it", task.name, args)

"""Queuing a Celery task from the code it serves, for every app (matches, notifications).

`enqueue` sends a task to the broker; in the embedded default (eager Celery) it runs the
tasks one after another in a loop instead of recursing, so a bot-against-bot game does not
nest hundreds of on_commit callbacks (a task queued by a running task runs after it).
There a task that meets a busy or unreachable database is logged and dropped instead of
failing the request that queued it: the request's own work is committed already, and an
error page would tell the person it was not. Each app says what becomes of the dropped
work (matches: the clock sweep finds it still due, matches/queue.py).

`run_task` queues a task by its registered name ("notifications.tasks.deliver"), for the
modules that the tasks' module imports (importing it back would make a loop).
"""

import logging
import threading

from celery import current_app
from django.db import OperationalError

log = logging.getLogger(__name__)
_local = threading.local()


def run_task(name: str, *args) -> None:
    """Queue the registered task `name` with `args` (ids)."""
    enqueue(current_app.tasks[name], *args)


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
    except OperationalError:  # committed work stands; the task's app says who retries it
        log.warning("%s%r met a busy database and did not run", task.name, args)

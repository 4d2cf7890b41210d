"""Thin Celery tasks (ids in, nothing out); the work is in services and clocks.

`enqueue` sends a task to the broker; in the embedded default (eager Celery) it runs the
tasks one after another in a loop instead of recursing, so a bot-against-bot game does not
nest hundreds of on_commit callbacks. There a task that meets a busy database is left to
the clock sweep (matches/embedded_clock.py) instead of failing the request that queued it:
what it would have done (drain, bot move, default move) is still due, and the sweep finds
it, as it finds a task lost with a dead worker.
"""

import logging
import threading

from celery import shared_task
from django.db import OperationalError

log = logging.getLogger(__name__)
_local = threading.local()


@shared_task(ignore_result=True, acks_late=True)
def drain_match(match_id):
    from .services import drain

    drain(match_id)


@shared_task(ignore_result=True, acks_late=True)
def bot_move(match_id, version):
    from .services import play_bot_move

    play_bot_move(match_id, version)


@shared_task(ignore_result=True)
def check_clocks():
    from .clocks_sweep import sweep

    sweep()


@shared_task(ignore_result=True, acks_late=True)
def default_move(match_id):
    from .services import submit_default_move

    submit_default_move(match_id)


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

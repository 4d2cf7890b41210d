"""Thin Celery tasks (ids in, nothing out); the work is in services and clocks.

`enqueue` sends a task to the broker; in the embedded default (eager Celery) it runs the
tasks one after another in a loop instead of recursing, so a bot-against-bot game does not
nest hundreds of on_commit callbacks.
"""

import threading

from celery import shared_task

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
        task.delay(*args)
        return
    queue = getattr(_local, "queue", None)
    if queue is not None:  # already inside the loop below: run after the current task
        queue.append((task, args))
        return
    _local.queue = queue = [(task, args)]
    try:
        while queue:
            next_task, next_args = queue.pop(0)
            next_task.apply(args=next_args, throw=True)
    finally:
        _local.queue = None

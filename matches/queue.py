"""Queuing the matches app's Celery tasks (matches/tasks.py) from the code they run.

The tasks call the services (a drain, a bot's move, a default move) and the services queue
the next task (a drain after a stored move, a bot's move after a commit): a loop, if each
imported the other. So the services name a task here (`send("drain_match", match_id)`)
and Celery's registry finds it; matches/apps.py imports matches/tasks.py when the app is
ready, which registers the tasks in every process (web, worker, tests).

`enqueue` (cardgame/task_queue.py, shared with notifications) sends a task to the broker,
or in the embedded default (eager Celery) runs it in a loop, not recursing. There a task
that meets a busy database is left to the clock sweep (matches/embedded_clock.py) instead
of failing the request that queued it: what it would have done (drain, bot move, default
move) is still due, and the sweep finds it, as it finds a task lost with a dead worker.
"""

from celery import current_app

from cardgame.task_queue import enqueue

TASKS_MODULE = "matches.tasks"

__all__ = ["enqueue", "registered", "send"]


def registered(name: str):
    """The registered task `matches.tasks.<name>`."""
    return current_app.tasks[f"{TASKS_MODULE}.{name}"]


def send(name: str, *args) -> None:
    """Queue the task `matches.tasks.<name>` with `args` (ids)."""
    enqueue(registered(name), *args)

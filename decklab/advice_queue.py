"""Queuing deck advice's tasks (issue 39) from the code they run.

The chunk that ends a round of a race queues the next round's chunks (decklab.advice_play),
and the tasks (decklab.tasks) call advice_play: a loop, if each imported the other. So
advice_play names its tasks here and Celery's registry finds them (decklab.apps imports
decklab.tasks when the app is ready, in every process), as matches/queue.py does.

Advice's tasks go to the workers at the lowest priority: with the Redis broker each
priority is a list of its own and a worker asks for the lists in priority order (0 first),
so a lab run's chunks and every game's moves (priority 0) are taken before the next chunk
of an advice race, however many advice chunks wait (bench/advice_bench.py --with-lab).
"""

from celery import current_app

from . import background

TASKS_MODULE = "decklab.tasks"
ADVICE_PRIORITY = 9  # Redis: the last of kombu's priority steps (0, 3, 6, 9) to be served


def registered(name: str):
    """The registered task `decklab.tasks.<name>`."""
    return current_app.tasks[f"{TASKS_MODULE}.{name}"]


def send(name: str, ids) -> None:
    """Queue the task `decklab.tasks.<name>` once per id, at the lowest priority, where the
    lab's chunks go (background.dispatch: the workers, the lab's thread, or the test)."""
    background.dispatch(registered(name), ids, priority=ADVICE_PRIORITY)

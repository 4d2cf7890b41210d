"""Which queue a socket's move goes to: the worker process that holds its game's position.

A worker drains a socket's move in one round trip when it holds the position the move is
for (services._drain_held_move): the position its own last drain of that game committed.
From the shared queue, a move finds that worker only by chance: with two workers about
half the time, with four a quarter (bench/RESULTS.md, issue 16). So a worker process that
holds positions for itself (the solo and threads pools: one process, one state cache)
consumes a queue of its own too, and names it in every push it sends (`own_queue`); the
web process sends the next move of that game there (consumers.MatchConsumer).

It is a hint, never a promise. The holder may have dropped the position, died, or be busy
with a long task; so a move sent to a holder that has not answered within HOLDER_FUSE
goes to the shared queue too, where any worker takes it. Whichever drain comes second
finds the move stored (its client_action_id is unique) and stores nothing. A prefork
worker's children each hold their own positions, and a queue of the parent's would reach
any child: it names no queue, and its games' moves take the shared queue.
"""

import logging
import os

from celery.signals import celeryd_after_setup, worker_shutdown

log = logging.getLogger(__name__)

# Seconds a move sent to its holder waits for an answer before it goes to the shared queue
# too: far over a holder's usual answer (p95 ~15 ms at 200 games), far under the 1 s a
# delivery may take at most (a holder in a long task: a bot's search, a deck-lab chunk).
HOLDER_FUSE = 0.2
# The pools whose tasks run in the worker process itself (one state cache for them all)
_SHARING_POOLS = ("celery.concurrency.solo", "celery.concurrency.thread")
_PREFIX = "kgk.holder."

_own_queue = ""


def own_queue() -> str:
    """This process's own queue ("" in a web process, a prefork worker, or eager Celery)."""
    return _own_queue


def is_holder_queue(name) -> bool:
    """Whether `name` (from a push) names a worker's own queue, not any other queue."""
    return isinstance(name, str) and name.startswith(_PREFIX) and len(name) <= 200


@celeryd_after_setup.connect
def _consume_own_queue(sender, instance, **_kwargs) -> None:
    """A queue of this worker process's own, beside the shared ones (the way Celery's
    documentation adds a queue per worker: `celeryd_after_setup`, `select_add`)."""
    global _own_queue
    if not str(getattr(instance.pool_cls, "__module__", "")).startswith(_SHARING_POOLS):
        return
    name = f"{_PREFIX}{sender}.{os.getpid()}"
    instance.app.amqp.queues.select_add(name)
    _own_queue = name
    log.info("this worker also takes the moves of the games it holds, from %s", name)


@worker_shutdown.connect
def _drop_own_queue(**_kwargs) -> None:
    """The moves left in this process's queue go the shared way: their web processes send
    them there after HOLDER_FUSE. The list and kombu's binding are removed with us."""
    global _own_queue
    name, _own_queue = _own_queue, ""
    if not name:
        return
    try:
        from celery import current_app

        with current_app.connection_for_write() as conn:
            client = conn.default_channel.client
            client.delete(name, f"_kombu.binding.{name}")
    except Exception:  # noqa: BLE001 - a leftover list only costs Redis its bytes
        log.warning("could not remove this worker's queue %s", name, exc_info=True)

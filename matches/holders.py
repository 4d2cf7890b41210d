"""Which queue a socket's move goes to: the worker process that holds its game's position.

A worker drains a socket's move in one round trip when it holds the position the move is
for (services._drain_held_move): the position its own last drain of that game committed.
From the shared queue, a move finds that worker only by chance: with two workers about
half the time, with four a quarter (bench/RESULTS.md, issue 16). So a worker process that
holds positions for itself (the solo and threads pools: one process, one state cache)
consumes a queue of its own too, and names it in every push it sends (`own_queue`); the
web process sends the next move of that game there (consumers.MatchConsumer).

Its queue is read by a consumer of its own in the worker's event loop (`HeldMoves`, a
Celery consumer bootstep: Celery's documented way to embed a kombu consumer), which
drains each move as it comes, as the `drain_move` task does, without Celery's task
machinery around it: the task's request, its trace and signals, and the Django fixup's
closing and reopening of the connection cost a worker about 1 ms of CPU a task on the
machine of bench/RESULTS.md's fifteenth round. The message is kombu's Redis envelope
around the move's six values in JSON (`held_move_message`); kombu delivers it without an
unacked record, as it does the swept `drain_move` (cardgame/broker.py): a move lost with
its worker is sent to the shared queue by its web process after HOLDER_FUSE.

It is a hint, never a promise. The holder may have dropped the position, died, or be busy
with a long task; so a move sent to a holder that has not answered within HOLDER_FUSE
goes to the shared queue too, where any worker takes it. Whichever drain comes second
finds the move stored (its client_action_id is unique) and stores nothing. A prefork
worker's children each hold their own positions, and a queue of the parent's would reach
any child: it names no queue, and its games' moves take the shared queue.
"""

import json
import logging
import os
import uuid

from celery import bootsteps, current_app
from celery.signals import celeryd_after_setup, worker_init, worker_shutdown
from django.db import close_old_connections
from kombu import Consumer, Exchange, Queue

from . import queue

log = logging.getLogger(__name__)

# Seconds a move sent to its holder waits for an answer before it goes to the shared queue
# too: far over a holder's usual answer (p95 ~15 ms at 200 games), far under the 1 s a
# delivery may take at most (a holder in a long task: a bot's search, a deck-lab chunk).
HOLDER_FUSE = 0.2
# The pools whose tasks run in the worker process itself (one state cache for them all)
_SHARING_POOLS = ("celery.concurrency.solo", "celery.concurrency.thread")
_PREFIX = "kgk.holder."

_own_queue = ""
# kombu's Redis transport: an exchange's bindings, and those of its queues without x-expires
_BINDING_KEYS = ("_kombu.binding.%s", "_kombu.binding_permanent.%s")


def own_queue() -> str:
    """This process's own queue ("" in a web process, a prefork worker, or eager Celery)."""
    return _own_queue


def is_holder_queue(name) -> bool:
    """Whether `name` (from a push) names a worker's own queue, not any other queue."""
    return isinstance(name, str) and name.startswith(_PREFIX) and len(name) <= 200


@celeryd_after_setup.connect
def _consume_own_queue(sender, instance, **_kwargs) -> None:
    """The name of this worker process's own queue, which `HeldMoves` reads beside the
    shared queues Celery reads; named once the pool is known (`celeryd_after_setup`)."""
    global _own_queue
    if not str(getattr(instance.pool_cls, "__module__", "")).startswith(_SHARING_POOLS):
        return
    _own_queue = f"{_PREFIX}{sender}.{os.getpid()}"
    log.info("this worker also takes the moves of the games it holds, from %s", _own_queue)


@worker_init.connect
def _add_consumer_step(sender, **_kwargs) -> None:
    """Before the worker builds its consumer (its steps are read then); the step consumes
    nothing unless `_consume_own_queue` named a queue when the worker started."""
    sender.app.steps["consumer"].add(HeldMoves)


class HeldMoves(bootsteps.ConsumerStep):
    """This worker process's own queue, consumed in its event loop: each message a move
    (`held_move_message`), drained at once (`drain_held_move`)."""

    def get_consumers(self, channel):
        if not _own_queue:
            return []
        # an exchange of its own: its binding is a Redis key of its own, removed with it
        queue = Queue(_own_queue, Exchange(_own_queue, "direct"), routing_key=_own_queue)
        consumer = Consumer(
            channel, queues=[queue], on_message=self.on_message, no_ack=True, accept=["json"]
        )
        return [consumer]

    def on_message(self, message) -> None:
        drain_held_move(message.body)


def held_move_message(queue: str, args) -> bytes:
    """What kombu's Redis transport reads as a message: its envelope, the body the six
    values of `tasks.drain_move` in JSON (no task headers, no base64)."""
    return json.dumps({
        "body": json.dumps(list(args)), "content-encoding": "utf-8",
        "content-type": "application/json", "headers": {},
        "properties": {"delivery_tag": uuid.uuid4().hex, "priority": 0,
                       "delivery_info": {"exchange": queue, "routing_key": queue}},
    }).encode()  # fmt: skip


def drain_held_move(body) -> None:
    """One move from this worker's own queue, drained as the `drain_move` task drains it;
    the database connection is handed back after it, as Celery's Django fixup does after
    a task. A move that fails here is logged: its web process sends it to the shared queue
    after HOLDER_FUSE, or stores it itself."""
    try:
        queue.registered("drain_move").run(
            *json.loads(body)
        )  # the task's own body, without Celery around it
    except Exception:  # noqa: BLE001 - the consumer must live on
        log.exception("a move from this worker's own queue failed")
    finally:
        close_old_connections()


@worker_shutdown.connect
def _drop_own_queue(**_kwargs) -> None:
    """The moves left in this process's queue go the shared way: their web processes send
    them there after HOLDER_FUSE. The list and kombu's bindings of it are removed with us
    (a killed worker leaves them: a list of the moves sent to it in its last 0.2 s, and two
    sets of one member each, which nothing reads)."""
    global _own_queue
    name, _own_queue = _own_queue, ""
    if not name:
        return
    try:
        with current_app.connection_for_write() as conn:
            client = conn.default_channel.client
            client.delete(name, *(key % name for key in _BINDING_KEYS))
    except Exception:  # noqa: BLE001 - a leftover list only costs Redis its bytes
        log.warning("could not remove this worker's queue %s", name, exc_info=True)

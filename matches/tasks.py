"""Thin Celery tasks (ids in, nothing out); the work is in services and clocks.

`enqueue` sends a task to the broker; in the embedded default (eager Celery) it runs the
tasks one after another in a loop instead of recursing, so a bot-against-bot game does not
nest hundreds of on_commit callbacks. There a task that meets a busy database is left to
the clock sweep (matches/embedded_clock.py) instead of failing the request that queued it:
what it would have done (drain, bot move, default move) is still due, and the sweep finds
it, as it finds a task lost with a dead worker.
"""

import asyncio
import base64
import json
import logging
import threading
import uuid
import weakref

from celery import shared_task
from celery.utils.nodenames import anon_nodename
from django.db import OperationalError

from . import holders  # a worker process's own queue (and its signals)

log = logging.getLogger(__name__)
_local = threading.local()


@shared_task(ignore_result=True, acks_late=True)
def drain_match(match_id):
    from .services import drain

    drain(match_id)


@shared_task(ignore_result=True, acks_late=True)
def drain_move(match_id, user_id, client_action_id, expected_version, action, reply_to):
    """A socket's move, not stored by the web: the drain stores it (services.drain_move)."""
    from .services import SocketMove
    from .services import drain_move as drain_socket_move

    move = SocketMove(user_id, client_action_id, expected_version, action, reply_to)
    drain_socket_move(match_id, move)


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


# --- a task sent from an event loop ---------------------------------------------------------


async def send_from_loop(task, *args) -> bool:
    """Send `task` from an event loop (a socket's move, matches/consumers.py) without
    leaving it: the message Celery's `apply_async` would push (`task_message`), pushed by
    this loop's own Redis client. A thread's `apply_async` was a fifth of a web process's
    CPU under 50 games and a hop to a thread and back on the path of every move
    (bench/RESULTS.md, issue 16). False when this broker is not a plain Redis queue (then
    the caller sends it the usual way); raises what Redis raises."""
    queue = _plain_redis_queue(task.app)
    if queue is None:
        return False
    await _loop_client(task.app.conf.broker_url).lpush(queue, task_message(task, args, queue))
    return True


async def send_to_holder(queue: str, *args) -> bool:
    """A socket's move (`drain_move`'s six values) to `queue`, the own queue of the worker
    holding its position (matches/holders.py), as `send_from_loop` sends to the shared
    queue: the move alone in kombu's envelope, no task headers. False when this broker is
    not a plain Redis queue; raises what Redis raises."""
    if _plain_redis_queue(drain_move.app) is None:
        return False
    message = holders.held_move_message(queue, args)
    await _loop_client(drain_move.app.conf.broker_url).lpush(queue, message)
    return True


def _plain_redis_queue(app) -> str | None:
    """The Redis list a task goes to when the broker is Redis with Celery's default routing:
    the default queue, no routes, no key prefix, no priorities (kombu's `_q_for_pri` then
    names the list as the queue). None for anything else."""
    conf = app.conf
    options = conf.broker_transport_options or {}
    plain = (
        not conf.task_always_eager
        and str(conf.broker_url).startswith(("redis://", "rediss://", "unix://"))
        and not conf.task_routes
        and not options.get("global_keyprefix")
        and not options.get("priority_steps")
    )
    return conf.task_default_queue if plain else None


def task_message(task, args, queue: str) -> bytes:
    """What Celery (protocol 2, JSON) and kombu's Redis transport write for
    `task.apply_async(args)` to the default queue: the same keys and values but the random
    ids (tests/matches/test_socket_worker.py compares the two)."""
    task_id = str(uuid.uuid4())
    argsrepr = repr(tuple(args))
    embed = {"callbacks": None, "errbacks": None, "chain": None, "chord": None}
    body = json.dumps([list(args), {}, embed]).encode()
    headers = {
        "lang": "py", "task": task.name, "id": task_id, "shadow": None, "eta": None,
        "expires": None, "group": None, "group_index": None, "retries": 0,
        "timelimit": [task.time_limit, task.soft_time_limit], "root_id": task_id,
        "parent_id": None, "argsrepr": argsrepr, "kwargsrepr": "{}", "origin": _ORIGIN,
        "ignore_result": task.ignore_result, "replaced_task_nesting": 0,
        "stamped_headers": None, "stamps": {},
    }  # fmt: skip
    properties = {
        "correlation_id": task_id, "reply_to": task.app.thread_oid, "argsrepr": argsrepr,
        "kwargsrepr": "{}", "delivery_mode": 2,
        "delivery_info": {"exchange": "", "routing_key": queue}, "priority": 0,
        "body_encoding": "base64", "delivery_tag": str(uuid.uuid4()),
    }  # fmt: skip
    message = {"body": base64.b64encode(body).decode(), "content-encoding": "utf-8",
               "content-type": "application/json", "headers": headers,
               "properties": properties}  # fmt: skip
    return json.dumps(message).encode()


_ORIGIN = anon_nodename()
# one client per event loop and broker (a client's connections belong to the loop that made them)
_loop_clients: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _loop_client(url: str):
    import redis.asyncio

    loop = asyncio.get_running_loop()
    clients = _loop_clients.setdefault(loop, {})
    if url not in clients:  # a Redis that hangs fails the send: the caller stores the move
        clients[url] = redis.asyncio.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    return clients[url]

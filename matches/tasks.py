"""Thin Celery tasks (ids in, nothing out); the work is in services and clocks.

The services queue these tasks by name (matches/queue.py: `enqueue`, the eager loop of the
embedded default), so neither imports the other. Here too: a socket's move sent from the
web process's event loop to a worker, unstored (`send_move`).
"""

import asyncio
import base64
import json
import logging
import uuid
import weakref

import redis.asyncio
from asgiref.sync import sync_to_async
from celery import shared_task
from celery.utils.nodenames import anon_nodename
from django.db import connection

from . import holders  # a worker process's own queue (and its signals)
from .clocks_sweep import sweep
from .queue import enqueue
from .services import bots, draining, endings, moves

log = logging.getLogger(__name__)
__all__ = ["enqueue"]  # where the tests and benches found it


@shared_task(ignore_result=True, acks_late=True)
def drain_match(match_id):
    draining.drain(match_id)


@shared_task(ignore_result=True, acks_late=True)
def drain_move(match_id, user_id, client_action_id, expected_version, action, reply_to):
    """A socket's move, not stored by the web: the drain stores it (services.drain_move)."""
    move = moves.SocketMove(user_id, client_action_id, expected_version, action, reply_to)
    draining.drain_move(match_id, move)


@shared_task(ignore_result=True, acks_late=True)
def bot_move(match_id, version):
    bots.play_bot_move(match_id, version)


@shared_task(ignore_result=True)
def check_clocks():
    sweep()


@shared_task(ignore_result=True, acks_late=True)
def default_move(match_id):
    endings.submit_default_move(match_id)


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
    loop = asyncio.get_running_loop()
    clients = _loop_clients.setdefault(loop, {})
    if url not in clients:  # a Redis that hangs fails the send: the caller stores the move
        clients[url] = redis.asyncio.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    return clients[url]


def moves_by_worker() -> bool:
    """Whether a socket's move goes to a worker unstored (`send_move`): with a broker and
    PostgreSQL (the worker's INSERT rides in its locked read). Otherwise (the embedded
    default: eager Celery, SQLite) the web stores it (`api.make_move`)."""
    return connection.vendor == "postgresql" and not drain_move.app.conf.task_always_eager


async def send_move(match_id: int, user, move: dict, reply_to: str, holder: str = "") -> None:
    """Queue a socket's move, unstored, for a worker (`drain_move`), from the socket's event
    loop: to `holder`, the queue of the worker that holds the game's position
    (`send_to_holder`, matches/holders.py), or else to the shared queue
    (`send_from_loop`). Raises what the broker raises (the caller then stores the
    move itself)."""
    args = (int(match_id), user.pk, move.get("client_action_id"),
            move.get("expected_version"), move.get("action"), reply_to)  # fmt: skip
    if holder and await send_to_holder(holder, *args):
        return
    if not await send_from_loop(drain_move, *args):
        await sync_to_async(enqueue, thread_sensitive=False)(drain_move, *args)

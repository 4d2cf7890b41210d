"""Issue 16: a socket's move goes to the worker that holds its game's position
(matches/holders.py), where it is drained in one round trip (services._drain_held_move);
a holder that does not answer within HOLDER_FUSE costs the move no more than that. Real
PostgreSQL, Redis and `celery -A cardgame worker --pool=solo` processes; the web's socket
on the real ASGI application. Every position still replays exactly (R 15)."""

import asyncio
import json
import os
import socket
import time
from types import SimpleNamespace

import pytest
import redis
from asgiref.sync import sync_to_async
from celery.concurrency import prefork

from matches import consumers, holders, tasks
from matches.models import ActionRequest, Match

from .kit import assert_consistent, logged_in
from .socket_kit import close_thread_connections, open_socket

pytestmark = pytest.mark.postgres


def _own_queue(process, index: int) -> str:
    """The queue worker `index` of the pool (service_kit.WorkerPool names it
    matches<index>-<test pid>@<host>) consumes besides the shared one."""
    return f"kgk.holder.matches{index}-{os.getpid()}@{socket.gethostname()}.{process.pid}"


@pytest.fixture
def sends(monkeypatch):
    """Every move the web sends to a worker: (client_action_id, queue; "" is the shared)."""
    seen = []
    to_shared, to_holder = tasks.send_from_loop, tasks.send_to_holder

    async def shared(task, *args):
        seen.append((args[2], ""))
        return await to_shared(task, *args)

    async def holder(queue, *args):
        seen.append((args[2], queue))
        return await to_holder(queue, *args)

    monkeypatch.setattr(tasks, "send_from_loop", shared)
    monkeypatch.setattr(tasks, "send_to_holder", holder)
    return seen


def _newest(match_id):
    return Match.objects.get(pk=match_id)


async def _move_and_answer(sockets, match_id, prefix, got, wait=10.0):
    """The deciding player's socket sends the first legal move; its answer and how long it
    took. `got` collects every socket's messages."""
    match = await sync_to_async(_newest, thread_sensitive=False)(match_id)
    seat = match.deciding_seat
    body = {"client_action_id": f"{prefix}{match.version}",
            "expected_version": match.version, "action": match.legal_ids[0]}  # fmt: skip
    started = time.monotonic()
    await sockets[seat].send_json_to({"type": "act", **body})
    while True:
        message = await sockets[seat].receive_json_from(timeout=wait)
        got[seat].append(message)
        if message["type"] == "answer" and message["client_action_id"] == body["client_action_id"]:
            return message, time.monotonic() - started, match.version


async def _updates_to(sockets, version, got, wait=10.0):
    """Both sockets' messages until each has the update at `version` (the holder's name has
    reached both web-side consumers)."""
    for seat, socket_ in sockets.items():
        while not any(m.get("version", -1) >= version for m in got[seat] if m["type"] == "update"):
            got[seat].append(await socket_.receive_json_from(timeout=wait))


def _sockets_scenario(match, players, body):
    """Run `body(sockets, got)` with both players' sockets open; returns what it returns."""
    clients = [logged_in(player) for player in players]

    async def scenario():
        sockets, got = {}, {0: [], 1: []}
        for seat in (0, 1):
            socket_, connected, code = await open_socket(match.pk, clients[seat])
            assert connected, code
            got[seat].append(await socket_.receive_json_from(timeout=10))
            sockets[seat] = socket_
        try:
            return await body(sockets, got), got
        finally:
            for socket_ in sockets.values():
                await socket_.disconnect()
            await close_thread_connections()

    return asyncio.run(scenario())


def _match(players, decks, seed):
    from matches import services

    colonies = [services.deck_colony(d, "original") for d in decks]
    return services.create_match(players=players, colonies=colonies, seed=seed)


@pytest.fixture
def pushes(monkeypatch):
    """Every update a web-side consumer received: (the holder its event named, the queue
    the consumer sends that game's next move to)."""
    seen = []
    real_update = consumers.MatchConsumer.match_update

    async def noting(consumer, event):
        await real_update(consumer, event)
        seen.append((event.get("holder"), consumer.holder))

    monkeypatch.setattr(consumers.MatchConsumer, "match_update", noting)
    return seen


def test_each_move_goes_to_the_worker_that_pushed_the_games_last_update(
    celery_worker_process, players, decks, sends, pushes
):
    """Two workers. A game's first move takes the shared queue (no push named a holder
    yet); every later one goes to the own queue of the worker whose push came last, which
    both players' web-side consumers learnt from that push. The page never sees the name."""
    pool = celery_worker_process
    pool.start()
    own = {_own_queue(p, i) for i, p in enumerate(pool.processes)}
    broker = redis.Redis.from_url(pool.env["REDIS_URL"])
    assert all(broker.exists(f"_kombu.binding.{name}") for name in own), "each declared its own"
    match = _match(players, decks, seed=61)

    async def six_moves(sockets, got):
        answers = []
        for _ in range(6):
            answer, _took, version = await _move_and_answer(sockets, match.pk, "h", got)
            answers.append(answer)
            await _updates_to(sockets, version + 1, got)
        return answers

    answers, got = _sockets_scenario(match, players, six_moves)

    assert [a["status"] for a in answers] == [202] * 6
    assert [a["body"]["request"]["status"] for a in answers] == ["applied"] * 6
    queues = [queue for _id, queue in sends]
    assert len(queues) == 6, "each move sent once: no holder was ever silent here"
    assert queues[0] == "", "no push named a holder before the first move"
    assert set(queues[1:]) <= own and all(queues[1:]), queues
    assert pushes and all(named in own and learnt == named for named, learnt in pushes)
    for message in got[0] + got[1]:  # hidden: the queue's name stays in the web process
        assert "kgk.holder" not in json.dumps(message)
    assert ActionRequest.objects.filter(match=match).count() == 6
    assert_consistent(Match.objects.get(pk=match.pk))


def test_a_move_sent_to_a_holder_that_died_is_drained_by_another_after_the_fuse(
    celery_worker_process, players, decks, sends, pushes
):
    """The worker that pushed a game's last update is killed. The next move goes to its
    queue, nobody answers there, and HOLDER_FUSE later the web sends the same move to the
    shared queue, where the other worker stores it once and answers: well before the
    web's own fallback (WORKER_ANSWER_WAIT) would have stored it."""
    pool = celery_worker_process
    pool.start()
    by_queue = {_own_queue(p, i): p for i, p in enumerate(pool.processes)}
    broker = redis.Redis.from_url(pool.env["REDIS_URL"])
    match = _match(players, decks, seed=62)

    async def kill_the_holder_then_move(sockets, got):
        first, _took, version = await _move_and_answer(sockets, match.pk, "k", got)
        await _updates_to(sockets, version + 1, got)
        holder = pushes[-1][1]  # what both consumers send the next move to
        pool.kill(by_queue[holder])
        second, took, _version = await _move_and_answer(sockets, match.pk, "k", got)
        return first, second, took, holder

    (first, second, took, holder), _got = _sockets_scenario(
        match, players, kill_the_holder_then_move
    )

    assert first["status"] == second["status"] == 202
    assert second["body"]["request"]["status"] == "applied"
    assert [queue for _id, queue in sends] == ["", holder, ""], "shared, the holder, shared"
    assert broker.llen(holder) == 1, "the dead holder's copy is still in its queue"
    assert holders.HOLDER_FUSE <= took < consumers.WORKER_ANSWER_WAIT - 0.5, took
    assert ActionRequest.objects.filter(match=match).count() == 2
    assert_consistent(Match.objects.get(pk=match.pk))


def test_a_worker_removes_its_own_queue_when_it_stops(celery_worker_process):
    """A stopped worker's queue and kombu's binding of it do not stay behind in Redis."""
    pool = celery_worker_process
    process = pool.processes[0]
    name = _own_queue(process, 0)
    broker = redis.Redis.from_url(pool.env["REDIS_URL"])
    assert broker.exists(f"_kombu.binding.{name}")
    broker.lpush(name, b"left behind")
    process.terminate()
    process.wait(timeout=30)
    assert not broker.exists(name, f"_kombu.binding.{name}", f"_kombu.binding_permanent.{name}")


def test_a_prefork_worker_names_no_queue_of_its_own(monkeypatch):
    """Its children each hold their own positions; a queue of the parent's would reach any
    child, so its games' moves take the shared queue."""
    monkeypatch.setattr(holders, "_own_queue", "")
    added = []
    instance = SimpleNamespace(
        pool_cls=prefork.TaskPool,
        app=SimpleNamespace(amqp=SimpleNamespace(queues=SimpleNamespace(select_add=added.append))),
    )
    holders._consume_own_queue(sender="w@host", instance=instance)
    assert holders.own_queue() == "" and added == []


@pytest.mark.parametrize(
    "value", [None, "", "celery", "kgk.holder", 7, ["kgk.holder.x"], "kgk.holder." + "x" * 300]
)
def test_a_consumer_takes_only_a_workers_own_queue_from_a_push(value):
    """Whatever else a push carried, the next move goes to the shared queue."""
    assert holders.is_holder_queue("kgk.holder.w@host.12")
    assert not holders.is_holder_queue(value)


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b"{}", b'[1, 2, "a", 0, "pass", "x", 7]'])
def test_a_malformed_message_in_a_workers_own_queue_is_logged_and_the_consumer_lives_on(
    body, caplog
):
    """Nothing but our web processes writes there; whatever else arrives is logged, and
    its move (if any) reaches a worker through the shared queue after the fuse."""
    holders.drain_held_move(body)
    assert "a move from this worker's own queue failed" in caplog.text

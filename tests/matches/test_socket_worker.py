"""Moves over the match socket with a real worker (issue 16): real PostgreSQL, Redis and a
`celery -A cardgame worker` process. The web sends the move to the worker unstored; the
worker stores it in its drain's first round trip and answers the socket after the commit,
with the push (matches/consumers.py, services.drain_move). What the worker would not store
goes the POST's way in the web, with the POST's status and code; a move the worker never
answers is stored by the web; either way a move is made once.
"""

import asyncio
import base64
import json
import uuid

import pytest
from asgiref.sync import sync_to_async

from matches import consumers, services
from matches.models import ActionRequest, Match

from .kit import assert_consistent, logged_in
from .socket_kit import close_thread_connections, messages_up_to, open_socket
from .test_worker import wait_until

pytestmark = pytest.mark.postgres


def _match(players, decks, seed):
    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=seed)
    match.refresh_from_db()
    return match


def _play(match, players, moves, *, wait=10.0):
    """Open both players' sockets, send `moves` ((seat, body) in turn) on the seat's socket,
    one after another; each socket's messages until it has seen the answer (the mover) or
    `wait` s passed with nothing new."""

    clients = [logged_in(player) for player in players]

    async def scenario():
        sockets, hello = {}, {}
        for seat in (0, 1):
            socket, connected, code = await open_socket(match.pk, clients[seat])
            assert connected, code
            hello[seat] = await socket.receive_json_from(timeout=10)
            sockets[seat] = socket
        got = {0: [], 1: []}
        for seat, body in moves:
            await sockets[seat].send_json_to({"type": "act", **body})
            while not any(
                m["type"] == "answer" and m["client_action_id"] == body["client_action_id"]
                for m in got[seat]
            ):
                got[seat].append(await sockets[seat].receive_json_from(timeout=wait))
        newest = await sync_to_async(
            Match.objects.values_list("version", flat=True).get, thread_sensitive=False
        )(pk=match.pk)
        for seat, socket in sockets.items():
            updates = [hello[seat], *(m for m in got[seat] if m["type"] == "update")]
            have = max(m["version"] for m in updates)
            if have < newest:
                got[seat] += await messages_up_to(socket, newest, have)
            await socket.disconnect()
        await close_thread_connections()
        return got

    return asyncio.run(scenario())


def _move(match, prefix="w"):
    return {"client_action_id": f"{prefix}{match.version}", "expected_version": match.version,
            "action": match.legal_ids[0]}  # fmt: skip


def test_a_sockets_move_is_stored_by_the_worker_answered_and_pushed_to_both(
    celery_worker_process, players, decks
):
    """R 16: the mover's socket gets the new position and the answer (202, the request
    applied: the worker answers after its commit); the other player's, its own update and
    no answer. The move is stored once, by the worker: the web stored nothing of its own."""
    match = _match(players, decks, seed=41)
    decider = match.deciding_seat
    body = _move(match)

    got = _play(match, players, [(decider, body)])

    answer = next(m for m in got[decider] if m["type"] == "answer")
    assert answer["status"] == 202 and answer["client_action_id"] == body["client_action_id"]
    request = answer["body"]["request"]
    assert request["status"] == "applied" and request["applied_version"] == match.version + 1
    mine = [m["state"]["you"] for m in got[decider] if m["type"] == "update"]
    theirs = got[1 - decider]
    assert mine and set(mine) == {decider}
    assert all(m["type"] == "update" for m in theirs)
    assert {m["state"]["you"] for m in theirs} == {1 - decider}
    assert max(m["version"] for m in theirs) == match.version + 1
    stored = ActionRequest.objects.get(match=match, client_action_id=body["client_action_id"])
    assert stored.pk == request["id"] and stored.status == "applied"
    assert ActionRequest.objects.filter(match=match).count() == 1
    assert_consistent(Match.objects.get(pk=match.pk))


def test_moves_the_worker_would_not_store_get_the_posts_status_and_code(
    celery_worker_process, players, decks
):
    match = _match(players, decks, seed=42)
    decider = match.deciding_seat
    body = _move(match)
    cases = [
        (decider, {**body, "client_action_id": "a", "expected_version": match.version + 5},
         409, "VERSION_NOT_REACHED"),
        (decider, {**body, "client_action_id": "b", "action": "fire:ship=99999,target=1"},
         422, "ILLEGAL_ACTION"),
        (decider, {**body, "client_action_id": "no spaces"}, 400, "BAD_CLIENT_ACTION_ID"),
        (1 - decider, {**body, "client_action_id": "c"}, 403, "NOT_YOUR_DECISION"),
        (decider, body, 202, None),  # then the good move, and the same again: 202, once
        (decider, body, 202, None),
        (decider, {**body, "client_action_id": "d"}, 409, "STALE_VERSION"),
    ]  # fmt: skip

    got = _play(match, players, [(seat, b) for seat, b, _s, _c in cases])

    answers = {seat: [m for m in got[seat] if m["type"] == "answer"] for seat in (0, 1)}
    seen = [answers[seat].pop(0) for seat, _b, _s, _c in cases]
    assert [(a["status"], a["body"].get("code")) for a in seen] == [
        (status, code) for _seat, _b, status, code in cases
    ]
    assert seen[4]["body"]["request"]["id"] == seen[5]["body"]["request"]["id"]
    stored = ActionRequest.objects.filter(match=match)
    assert [(r.client_action_id, r.status) for r in stored] == [(body["client_action_id"],
                                                                  "applied")]  # fmt: skip
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_moves_sent_at_once_on_one_socket_are_answered_one_after_the_other(
    celery_worker_process, players, decks
):
    """A socket has one move in flight: the first goes to the worker as its message is
    read, the second (sent before the first's answer came) waits for that answer and then
    goes its way, finding the position moved on: 202 applied, then 409 STALE_VERSION, in
    that order, and one move made."""
    match = _match(players, decks, seed=44)
    decider = match.deciding_seat
    first = _move(match)
    second = {**first, "client_action_id": "second"}
    clients = [logged_in(player) for player in players]

    async def scenario():
        socket, connected, code = await open_socket(match.pk, clients[decider])
        assert connected, code
        await socket.receive_json_from(timeout=10)  # the hello
        await socket.send_json_to({"type": "act", **first})
        await socket.send_json_to({"type": "act", **second})
        answers = []
        while len(answers) < 2:
            message = await socket.receive_json_from(timeout=10)
            if message["type"] == "answer":
                answers.append(message)
        await socket.disconnect()
        await close_thread_connections()
        return answers

    answers = asyncio.run(scenario())

    assert [(a["client_action_id"], a["status"]) for a in answers] == [
        (first["client_action_id"], 202), ("second", 409)]  # fmt: skip
    assert answers[0]["body"]["request"]["status"] == "applied"
    assert answers[1]["body"]["code"] == "STALE_VERSION"
    stored = ActionRequest.objects.filter(match=match)
    assert [r.client_action_id for r in stored] == [first["client_action_id"]]
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_a_move_no_worker_answers_is_stored_by_the_web_and_made_once(
    celery_worker_process, players, decks, monkeypatch
):
    """The worker is gone when the move is sent: after WORKER_ANSWER_WAIT the web stores the
    move itself (202, pending). A worker started later takes the unstored move's task (it
    stores nothing: the same client_action_id is there) and the web's drain: applied once."""
    monkeypatch.setattr(consumers, "WORKER_ANSWER_WAIT", 0.5)
    match = _match(players, decks, seed=43)
    decider = match.deciding_seat
    body = _move(match)
    celery_worker_process.stop_all()

    got = _play(match, players, [(decider, body)], wait=5)

    answer = next(m for m in got[decider] if m["type"] == "answer")
    assert answer["status"] == 202 and answer["body"]["request"]["status"] == "pending"
    celery_worker_process.start()
    wait_until(
        lambda: Match.objects.get(pk=match.pk).version == match.version + 1,
        what="the move applied",
    )
    wait_until(
        lambda: not ActionRequest.objects.filter(match=match, status="pending").exists(),
        what="nothing pending",
    )
    stored = ActionRequest.objects.get(match=match)
    assert stored.client_action_id == body["client_action_id"] and stored.status == "applied"
    assert Match.objects.get(pk=match.pk).version == match.version + 1
    assert_consistent(Match.objects.get(pk=match.pk))


@pytest.fixture
def redis_broker(redis_url):
    """The test process's Celery sending to Redis DB 1 (no worker reads it)."""
    from cardgame.celery import app

    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=redis_url, task_always_eager=False)
    app._after_fork()
    try:
        yield redis_url
    finally:
        app.conf.update(**saved)
        app._after_fork()


def _ids_out(message: dict) -> dict:
    """A message with its random ids (and the sender's name) replaced by what they are."""
    headers, properties = dict(message["headers"]), dict(message["properties"])
    assert headers["id"] == headers["root_id"] == properties["correlation_id"]
    for place, key in ((headers, "id"), (headers, "root_id"), (properties, "correlation_id"),
                       (properties, "delivery_tag"), (properties, "reply_to")):  # fmt: skip
        place[key] = "<uuid>" if uuid.UUID(place[key]) else None
    headers["origin"] = headers["origin"].split("@")[0].rstrip("0123456789")
    return {**message, "headers": headers, "properties": properties}


def test_a_task_sent_from_the_event_loop_is_the_message_celery_would_send(redis_broker):
    """tasks.send_from_loop writes what Celery and kombu write for apply_async: the same
    list, the same keys and values but the random ids."""
    import redis

    from matches import tasks

    args = (7, 3, "s12", 12, "play:ship=4", "specific.abc!def")
    client = redis.Redis.from_url(redis_broker)
    tasks.enqueue(tasks.drain_move, *args)
    (celerys,) = client.lrange("celery", 0, -1)
    client.delete("celery")

    assert asyncio.run(tasks.send_from_loop(tasks.drain_move, *args)) is True
    (ours,) = client.lrange("celery", 0, -1)

    assert _ids_out(json.loads(ours)) == _ids_out(json.loads(celerys))
    body = json.loads(base64.b64decode(json.loads(ours)["body"]))
    assert body[0] == list(args)

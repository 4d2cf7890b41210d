"""Moves sent over the match socket (issue 16): the same function as the POST answers
them (`api.make_move`), with the POST's status and body; the embedded default (in-memory
channel layer, eager Celery). The browser's fallback to the POST is in
tests/browser/test_match_browser.py."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from matches.models import ActionRequest

from .socket_kit import close_thread_connections, drain_messages, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def _move(client, match_id, **changes):
    state = client.get(f"/api/matches/{match_id}/").json()
    move = {"client_action_id": f"s{state['version']}", "expected_version": state["version"]}
    move["action"] = state["legal_actions"][0]["id"] if state["legal_actions"] else "pass"
    return state, {**move, **changes}


def _exchange(match_id, client, messages, *, watcher=None):
    """Send each message on `client`'s socket; every reply (and what `watcher`'s socket got)."""

    async def scenario():
        socket, connected, _code = await open_socket(match_id, client)
        assert connected
        await socket.receive_json_from(timeout=5)  # the hello
        other = None
        if watcher is not None:
            other, _ok, _code = await open_socket(match_id, watcher)
            await other.receive_json_from(timeout=5)
        replies = []
        for message in messages:
            if isinstance(message, str):
                await socket.send_to(text_data=message)
            else:
                await socket.send_json_to(message)
            replies.append(await drain_messages(socket, timeout=0.5))
        watched = await drain_messages(other) if other is not None else None
        for s in (socket, other):
            if s is not None:
                await s.disconnect()
        await close_thread_connections()
        return replies, watched

    return asyncio.run(scenario())


def test_a_move_over_the_socket_is_answered_like_the_post_and_pushed_to_both(human_match, clients):
    """R 16: the answer goes to the mover's socket only; both players get their own update."""
    human_match.refresh_from_db()
    decider = human_match.deciding_seat
    before, move = _move(clients[decider], human_match.pk)
    (replies,), watched = _exchange(
        human_match.pk, clients[decider], [{"type": "act", **move}], watcher=clients[1 - decider]
    )
    answer = next(m for m in replies if m["type"] == "answer")
    assert answer["client_action_id"] == move["client_action_id"]
    assert answer["status"] == 202
    assert answer["body"]["request"]["status"] == "applied"  # eager: drained in the call
    update = next(m for m in replies if m["type"] == "update")
    assert update["version"] == before["version"] + 1
    assert update["state"]["you"] == decider
    assert [m["state"]["you"] for m in watched] == [1 - decider]  # no answer leaks to it
    assert all(m["type"] == "update" for m in watched)
    stored = ActionRequest.objects.get(match=human_match, client_action_id=move["client_action_id"])
    assert (stored.seat, stored.action) == (decider, move["action"])


def test_the_same_move_sent_by_socket_and_by_post_is_made_once(human_match, clients):
    human_match.refresh_from_db()
    client = clients[human_match.deciding_seat]
    before, move = _move(client, human_match.pk)
    (replies,), _ = _exchange(human_match.pk, client, [{"type": "act", **move}])
    answer = next(m for m in replies if m["type"] == "answer")
    again = client.post(f"/api/matches/{human_match.pk}/actions/", move, "application/json")
    assert again.status_code == 202
    assert again.json()["request"]["id"] == answer["body"]["request"]["id"]
    assert ActionRequest.objects.filter(match=human_match, origin=ActionRequest.CLIENT).count() == 1
    human_match.refresh_from_db()
    assert human_match.version == before["version"] + 1


def test_refused_moves_get_the_posts_status_and_code(human_match, clients):
    human_match.refresh_from_db()
    decider = human_match.deciding_seat
    _state, move = _move(clients[decider], human_match.pk)
    cases = [
        ({**move, "action": "fire:ship=99999,target=1"}, 422, "ILLEGAL_ACTION"),
        ({**move, "expected_version": move["expected_version"] + 5}, 409, "VERSION_NOT_REACHED"),
        ({**move, "client_action_id": "no spaces allowed"}, 400, "BAD_CLIENT_ACTION_ID"),
        ({**move, "expected_version": "3"}, 400, "BAD_VERSION"),
    ]
    replies, _ = _exchange(
        human_match.pk, clients[decider], [{"type": "act", **m} for m, _s, _c in cases]
    )
    for (_m, status, code), got in zip(cases, replies, strict=True):
        assert [(a["status"], a["body"]["code"]) for a in got] == [(status, code)]
    # the other player, whose decision it is not
    (other,), _ = _exchange(human_match.pk, clients[1 - decider], [{"type": "act", **move}])
    assert [(a["status"], a["body"]["code"]) for a in other] == [(403, "NOT_YOUR_DECISION")]
    assert not ActionRequest.objects.filter(match=human_match, origin=ActionRequest.CLIENT).exists()


def test_a_spectators_socket_makes_no_move(human_match, clients):
    human_match.refresh_from_db()
    _state, move = _move(clients[human_match.deciding_seat], human_match.pk)
    (replies,), _ = _exchange(human_match.pk, Client(), [{"type": "act", **move}])
    assert [(a["status"], a["body"]["code"]) for a in replies] == [(403, "NOT_A_PLAYER")]
    assert not ActionRequest.objects.filter(match=human_match).exists()


def test_a_socket_stops_moving_once_its_session_has_ended(
    human_match, clients, players, monkeypatch
):
    """The socket trusts the session it connected with for SESSION_RECHECK seconds only: a
    password change (which ends the other sessions) stops its moves."""
    from matches import consumers

    monkeypatch.setattr(consumers, "SESSION_RECHECK", 0.0)
    human_match.refresh_from_db()
    decider = human_match.deciding_seat
    client = clients[decider]
    _state, move = _move(client, human_match.pk)

    async def scenario():
        socket, _ok, _code = await open_socket(human_match.pk, client)
        await socket.receive_json_from(timeout=5)
        user = players[decider]
        user.set_password("a-new-password-123")
        await sync_to_async(user.save)()
        await socket.send_json_to({"type": "act", **move})
        replies = await drain_messages(socket)
        await socket.disconnect()
        await close_thread_connections()
        return replies

    replies = asyncio.run(scenario())
    assert [(a["status"], a["body"]["code"]) for a in replies] == [(403, "NOT_LOGGED_IN")]
    assert not ActionRequest.objects.filter(match=human_match).exists()


def test_malformed_and_oversized_messages_are_answered_and_the_socket_stays(human_match, clients):
    """Each is answered with an "error" message (issue 35; it was ignored) and not read."""
    human_match.refresh_from_db()
    replies, _ = _exchange(
        human_match.pk,
        clients[0],
        ["{not json", '["act"]', '{"type": "act", "pad": "' + "x" * 5000 + '"}', {"type": "ping"}],
    )
    codes = [[(m["type"], m["code"]) for m in reply] for reply in replies[:3]]
    assert codes == [
        [("error", "BAD_MESSAGE")],
        [("error", "BAD_MESSAGE")],
        [("error", "TOO_LARGE")],
    ]
    assert [m["type"] for m in replies[3]] == ["pong"]
    assert not ActionRequest.objects.filter(match=human_match).exists()


@pytest.mark.parametrize(
    "message",
    ["[" * 1500 + "]" * 1500, '{"type": "act", "action": ' + "[" * 1500 + "]" * 1500 + "}"],
    ids=["brackets", "inside-a-move"],
)
def test_a_message_nested_past_the_recursion_limit_is_answered_and_the_socket_stays(
    human_match, clients, message
):
    """Issue 35: ~3 kB of nested brackets raised RecursionError in the receiver (not caught):
    the sender's socket was dropped. Now an "error" answer, and the socket still pongs."""
    human_match.refresh_from_db()
    assert len(message) < 4096  # under the size limit: it is read
    replies, _ = _exchange(human_match.pk, clients[0], [message, {"type": "ping"}])
    assert [(m["type"], m["code"]) for m in replies[0]] == [("error", "BAD_MESSAGE")]
    assert replies[0][0]["detail"]
    assert [m["type"] for m in replies[1]] == ["pong"]
    assert not ActionRequest.objects.filter(match=human_match).exists()


def test_the_bots_answers_reach_the_socket_while_the_move_is_still_being_answered(
    players, decks, clients
):
    """In the embedded default a move plays the bot's answers in the same call: their pushes
    come on the socket as they are made, before the move's own answer, not all held back
    until it (the socket handles its other messages while a move is in flight)."""
    created = clients[0].post(
        "/api/matches/", {"deck": decks[0].pk, "bot": "heuristic"}, "application/json"
    )
    assert created.status_code == 201, created.json()
    match_id = created.json()["id"]
    for _attempt in range(40):  # a move after which the bot decides
        state = clients[0].get(f"/api/matches/{match_id}/").json()
        move = {"client_action_id": f"m{state['version']}", "expected_version": state["version"],
                "action": state["legal_actions"][0]["id"]}  # fmt: skip
        (replies,), _ = _exchange(match_id, clients[0], [{"type": "act", **move}])
        kinds = [m["type"] for m in replies]
        assert kinds.count("answer") == 1 and replies[kinds.index("answer")]["status"] == 202
        after = clients[0].get(f"/api/matches/{match_id}/").json()
        if after["version"] > state["version"] + 1:  # the bot moved in the same call
            break
    else:
        pytest.fail("the bot never answered a move in 40 moves")
    updates = [m["version"] for m in replies if m["type"] == "update"]
    assert updates[-1] == after["version"] and len(updates) >= 2
    assert kinds[-1] == "answer", kinds  # the bot's pushes came first, as they were made


def test_a_socket_flooding_moves_is_told_to_wait_without_database_work(human_match, clients):
    """At most MAX_QUEUED_MOVES moves of a socket wait for their answer; the rest are
    answered 429 at once, in the page's language, and store nothing."""
    from matches import consumers

    human_match.refresh_from_db()
    decider = human_match.deciding_seat
    _state, move = _move(clients[decider], human_match.pk)
    flood = [{"type": "act", **move, "client_action_id": f"f{n}"} for n in range(12)]

    async def scenario():
        socket, _ok, _code = await open_socket(
            human_match.pk, clients[decider], path=f"/ws/matches/{human_match.pk}/?lang=hu"
        )
        await socket.receive_json_from(timeout=5)
        for message in flood:
            await socket.send_json_to(message)
        replies = await drain_messages(socket, timeout=1.0)
        await socket.disconnect()
        await close_thread_connections()
        return replies

    answers = [m for m in asyncio.run(scenario()) if m["type"] == "answer"]
    assert sorted(a["client_action_id"] for a in answers) == sorted(
        m["client_action_id"] for m in flood
    )
    refused = [a for a in answers if a["status"] == 429]
    assert refused and all(a["body"]["code"] == "TOO_MANY_MOVES" for a in refused)
    assert refused[0]["body"]["detail"].startswith("Túl sok lépés")
    stored = ActionRequest.objects.filter(match=human_match, origin=ActionRequest.CLIENT)
    assert stored.count() == 1 and stored.get().client_action_id == "f0"
    assert consumers.MAX_QUEUED_MOVES < len(flood)


def test_a_sockets_move_budget_allows_a_burst_then_its_rate():
    """The token bucket of matches/consumers.py: MOVE_BURST moves at once, then MOVE_RATE a
    second (a clock of the test's own: no waiting)."""
    from matches.consumers import MoveBudget

    now = [100.0]
    budget = MoveBudget(rate=4.0, burst=3, clock=lambda: now[0])
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.25  # one move's worth
    assert [budget.take(), budget.take()] == [True, False]
    now[0] += 60  # a long pause refills to the burst, not beyond
    assert [budget.take() for _ in range(4)] == [True, True, True, False]


def test_a_socket_past_its_move_budget_is_told_to_wait_and_stores_nothing(
    human_match, clients, monkeypatch
):
    """Moves sent one after another (each answered before the next), past the socket's
    budget: the rest are 429 at once, with no database work and no task. A smaller burst
    here; the page's own pace is far below MOVE_RATE."""
    from matches import consumers

    monkeypatch.setattr(consumers, "MOVE_BURST", 3)
    monkeypatch.setattr(consumers, "MOVE_RATE", 0.01)
    human_match.refresh_from_db()
    decider = human_match.deciding_seat
    _state, move = _move(clients[decider], human_match.pk)
    stale = {**move, "expected_version": move["expected_version"] + 5}  # 409, stores nothing

    async def scenario():
        socket, _ok, _code = await open_socket(human_match.pk, clients[decider])
        await socket.receive_json_from(timeout=5)
        answers = []
        for n in range(5):
            await socket.send_json_to({"type": "act", **stale, "client_action_id": f"s{n}"})
            while True:
                message = await socket.receive_json_from(timeout=10)
                if message["type"] == "answer":
                    answers.append(message)
                    break
        await socket.disconnect()
        await close_thread_connections()
        return answers

    answers = asyncio.run(scenario())
    assert [a["status"] for a in answers] == [409, 409, 409, 429, 429]
    assert {a["body"]["code"] for a in answers[3:]} == {"TOO_MANY_MOVES"}
    assert not ActionRequest.objects.filter(match=human_match, client_action_id__startswith="s")

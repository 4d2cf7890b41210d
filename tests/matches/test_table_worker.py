"""Integration of a multiplayer table (R 17.1): real PostgreSQL, Redis and a real
`celery -A cardgame worker`. Two people open and join a table of four over the HTTP API,
the host starts it and two bots fill the free seats; the people play by HTTP while their
WebSockets (and a spectator's) receive every push; the game is played to its end and its
result is a full ranking (AMB-44, R 17.1.6). Each socket only ever carries its own seat's
projection (R 16.2): no other seat's centre, legal actions only for itself.
"""

import asyncio
import random
import threading
import time

import pytest
from django.test import Client

from matches.models import Match

from .kit import assert_consistent, logged_in, post_random_action
from .socket_kit import close_thread_connections, open_socket

pytestmark = pytest.mark.postgres

PLAY_SECONDS = 240  # then the people let bots play on for them (the table still ends ranked)


class Listener:
    """A thread with sockets for seat 0, seat 1 and a spectator, collecting every update
    until the match is over."""

    def __init__(self, match_id, clients):
        self.match_id, self.clients = match_id, clients
        self.messages = {0: [], 1: [], None: []}
        self.done = threading.Event()
        self.error = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self.thread.start()

    def _run(self):
        try:
            asyncio.run(self._listen())
        except Exception as exc:  # noqa: BLE001 - reported by the test
            self.error = exc

    async def _listen(self):
        sockets = {}
        for viewer, client in ((0, self.clients[0]), (1, self.clients[1]), (None, Client())):
            socket, connected, code = await open_socket(self.match_id, client)
            assert connected, code
            sockets[viewer] = socket
        try:
            over = set()
            while len(over) < 3:
                for viewer, socket in sockets.items():
                    if viewer in over or await socket.receive_nothing(timeout=0.05):
                        continue
                    message = await socket.receive_json_from(timeout=5)
                    self.messages[viewer].append(message)
                    if message.get("state", {}).get("status") == "finished":
                        over.add(viewer)
        finally:
            for socket in sockets.values():
                await socket.disconnect()
            await close_thread_connections()
            self.done.set()


def test_a_table_of_four_two_people_and_two_bots_played_to_a_full_ranking(
    celery_worker_process, players, decks
):
    alice, bob = players
    clients = [logged_in(alice), logged_in(bob)]
    opened = clients[0].post("/api/matches/", {"deck": decks[0].pk, "seats": 4}, "application/json")
    assert opened.status_code == 201, opened.json()
    match_id = opened.json()["id"]
    joined = clients[1].post(
        f"/api/matches/{match_id}/join/", {"deck": decks[1].pk}, "application/json"
    )
    assert joined.status_code == 200, joined.json()
    listener = Listener(match_id, clients)
    started = clients[0].post(f"/api/matches/{match_id}/start/", {}, "application/json")
    assert started.status_code == 200, started.json()
    assert [p["bot"] for p in started.json()["players"]] == [None, None, "heuristic", "heuristic"]
    listener.start()
    rng = random.Random(17)
    deadline = time.monotonic() + PLAY_SECONDS
    moves = 0
    while time.monotonic() < deadline:
        states = [c.get(f"/api/matches/{match_id}/").json() for c in clients]
        if states[0]["status"] != "active":
            break
        for client, state in zip(clients, states, strict=True):
            if state["legal_actions"]:
                response = post_random_action(client, match_id, state, rng)
                assert response.status_code in (202, 409), response.json()
                moves += response.status_code == 202
        time.sleep(0.01)
    played_out = Match.objects.get(pk=match_id).status == Match.FINISHED
    if not played_out:  # the people leave; the bots standing in play the table to its end
        for client in clients:
            left = client.post(f"/api/matches/{match_id}/concede/", {}, "application/json")
            assert left.status_code in (200, 409), left.json()
    end = time.monotonic() + 300
    while Match.objects.get(pk=match_id).status == Match.ACTIVE and time.monotonic() < end:
        time.sleep(0.2)
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.FINISHED and match.result == "elimination", match.status
    assert sorted(match.ranking) == [0, 1, 2, 3] and match.winner_seat == match.ranking[0]
    assert moves > 10
    assert_consistent(match)
    for client in clients:
        result = client.get(f"/api/matches/{match_id}/").json()["result"]
        assert result["ranking"] == match.ranking and result["reason"] == "elimination"
    assert listener.done.wait(60), "the sockets never saw the end"
    assert listener.error is None, listener.error
    for viewer, messages in listener.messages.items():
        assert len(messages) > 3, viewer
        for message in messages:
            state = message["state"]
            assert state["you"] == viewer
            for p in state["view"]["players"]:
                assert (p["centre"] is not None) == (p["seat"] == viewer)
            if state["legal_actions"]:
                assert state["clocks"]["deciding_seat"] == viewer
        assert messages[-1]["state"]["result"]["ranking"] == match.ranking
    print(f"moves by the people: {moves}; played out by them: {played_out}")

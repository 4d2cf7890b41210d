"""Two players and a game page against a real site process (live_kit.LiveSite).

`Players` plays both seats through the HTTP API as pages do, and retries what the server
could not take (503) with the same client_action_id. `Page` follows the match over a real
WebSocket exactly as static/matches/game.js does: it applies updates in seq order,
resyncs over HTTP on a gap or a (re)connect, polls and reconnects while its socket is
closed, until the game is over.
"""

import asyncio
import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

OVER = ("finished", "aborted")


class Players:
    """Both seats of one match, random legal actions, one at a time."""

    def __init__(self, site, sessions, match_id, seed=0):
        self.site, self.sessions, self.match_id = site, sessions, match_id
        self.rng = random.Random(seed)
        self.accepted = []  # (client_action_id, seat, expected_version, action): every 202
        self.unavailable = []  # when each request answered 503 was sent (time.monotonic())
        self.latency = []  # (decision began, seconds until the players saw it applied), per 202

    def play(self, before_move=lambda state: None, max_moves=3000) -> dict:
        """Until the game is over; `before_move(state)` is called before each decision."""
        for _ in range(max_moves):
            state = self.read(0)
            if state["status"] != "active":
                return state
            before_move(state)
            self.move(state)
        raise AssertionError("the game did not end")

    def move(self, state):
        sent = time.monotonic()  # the decision begins (the decider's read may meet an outage)
        seat = state["clocks"]["deciding_seat"]
        if seat != 0:  # only the decider is shown its legal actions
            state = self.read(seat)
        if state["status"] != "active" or not state["legal_actions"]:
            return  # the position moved on meanwhile
        version = state["version"]
        action = self.rng.choice(state["legal_actions"])["id"]
        cid = f"s{seat}-v{version}"
        body = {"client_action_id": cid, "expected_version": version, "action": action}
        status, answer = self.call("POST", f"/api/matches/{self.match_id}/actions/", seat, body)
        # 409: a clock's default move took the position first; anything else is a defect
        assert status in (202, 409), (status, answer)
        if status == 202:
            self.accepted.append((cid, seat, version, action))
            self.wait_past(seat, version)
            self.latency.append((sent, time.monotonic() - sent))

    def crowd(self, requests=16):
        """As many reads at once (as many pages at once): the site's pool grows to hold
        about as many connections."""
        start = threading.Barrier(requests)

        def read():
            start.wait()
            return self.call("GET", f"/api/matches/{self.match_id}/", 0)[0]

        with ThreadPoolExecutor(requests) as pool:
            statuses = list(pool.map(lambda _: read(), range(requests)))
        assert statuses == [200] * requests, statuses

    def read(self, seat) -> dict:
        status, state = self.call("GET", f"/api/matches/{self.match_id}/", seat)
        assert status == 200, (status, state)
        return state

    def wait_past(self, seat, version, timeout=120):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.read(seat)
            if state["version"] > version or state["status"] != "active":
                return
            time.sleep(0.02)
        raise AssertionError(f"version {version} was accepted and never applied")

    def call(self, method, path, seat, body=None, timeout=120):
        """One request, sent again (the same body, so the same client_action_id) while the
        answer is 503 "try again"."""
        deadline = time.monotonic() + timeout
        while True:
            sent = time.monotonic()
            status, answer = self.site.request(method, path, body, self.sessions[seat])
            if status != 503 or time.monotonic() > deadline:
                return status, answer
            self.unavailable.append(sent)
            time.sleep(0.5)


class Page:
    """game.js's socket logic in a thread of its own (see the module docstring)."""

    def __init__(self, site, session, match_id):
        self.site, self.session, self.match_id = site, session, match_id
        self.version, self.status, self.last_seq = -1, None, 0
        self.seqs = []  # every event the page's log showed, in order
        self.connects = []  # when each socket opened (time.monotonic())
        self.refused = []  # when each attempt that did not open a socket began
        self._stopping = False
        self._socket = self._loop = None
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)

    def start(self):
        self._thread.start()
        return self

    def catch_up(self, version, timeout=90) -> bool:
        """Whether the page shows `version` (or later) within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while self.version < version and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.version >= version

    def close(self):
        self._stopping = True
        if self._socket is not None:
            asyncio.run_coroutine_threadsafe(self._socket.close(), self._loop)
        self._thread.join(timeout=15)

    async def _run(self):
        self._loop = asyncio.get_running_loop()
        await self._resync()  # the page loads: the state it was rendered with, and the log
        delay = 1.0
        while not self._stopping:
            attempt = time.monotonic()
            try:
                async with connect(self._ws_url(), additional_headers=self._headers(),
                                   open_timeout=10) as socket:  # fmt: skip
                    self._socket, delay = socket, 1.0
                    self.connects.append(time.monotonic())
                    async for raw in socket:
                        await self._on_message(json.loads(raw))
            except (OSError, TimeoutError, WebSocketException):
                if not self._socket:
                    self.refused.append(attempt)  # the server did not take the socket
                # else closed abnormally: as onclose
            self._socket = None
            if self._stopping or self.status in OVER:
                return  # game.js reconnects only while the game goes on
            await self._resync()  # its poll while the socket is closed
            # game.js: jittered, doubling up to 30 s
            await asyncio.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 30.0)

    async def _on_message(self, message):
        if message.get("type") != "update":
            return
        events = message.get("events") or []
        if events and events[0]["seq"] != self.last_seq + 1 and events[0]["seq"] > self.last_seq:
            await self._resync()  # a gap: a push was lost
            return
        if not events and message["seq"] > self.last_seq:
            await self._resync()  # a (re)connect: catch the log up
            return
        self._append_log(events)
        self._adopt(message["state"])

    async def _resync(self):
        """GET the match and the events after the last one shown; a failure is left to the
        next message or poll (as game.js does)."""
        base = f"/api/matches/{self.match_id}/"
        state, events = await asyncio.gather(
            asyncio.to_thread(self.site.request, "GET", base, None, self.session),
            asyncio.to_thread(
                self.site.request, "GET", f"{base}events/?after={self.last_seq}", None, self.session
            ),
        )
        if state[0] == 200 and events[0] == 200:
            self._append_log(events[1]["events"])
            self._adopt(state[1])

    def _append_log(self, events):
        for event in events:
            if event["seq"] > self.last_seq:
                self.last_seq = event["seq"]
                self.seqs.append(event["seq"])

    def _adopt(self, state):
        if state["version"] >= self.version:  # an older answer overtaken by a newer one
            self.version, self.status = state["version"], state["status"]

    def _ws_url(self):
        return self.site.url.replace("http://", "ws://") + f"/ws/matches/{self.match_id}/"

    def _headers(self):
        return {"Origin": self.site.url, "Cookie": f"sessionid={self.session}"}

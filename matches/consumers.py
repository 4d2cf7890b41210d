"""The match socket: /ws/matches/<id>/?lang=hu. Server → client "update" messages; the
client may send
- {"type": "ping"}, answered by {"type": "pong", version, seq}: the match's newest commit,
  so a page whose socket went quiet finds out that a push never reached it;
- {"type": "act", client_action_id, expected_version, action}: a player's move, the same
  body as the POST to .../actions/, answered by {"type": "answer", client_action_id,
  status, body}: the POST's status and body. With a broker and PostgreSQL a worker stores
  and answers it (`MatchConsumer._answer`); otherwise, or when the worker would not store
  it, the POST's own function (`api.make_move`). A move over the open socket costs no
  HTTP request and no session or user read (the socket read them when it connected; it
  reads the session again every SESSION_RECHECK s, so a logout or a password change
  elsewhere stops its moves). The page falls back to the
  POST when the socket is closed or does not answer; the same client_action_id is stored
  once, so a move sent both ways is made once.

The viewer comes from the session's user and the match's seats, never from the client:
players get their own projection, everybody else (also anonymous) the spectator view.
On connect the socket sends the current state at once, so a reconnect is a resync.

Why not Channels' `AuthMiddlewareStack` and `database_sync_to_async`: both run in ONE
thread per process shared by every socket, and Channels also hops into that thread before
every message a consumer handles. Under 50 games a reconnect queued behind the others'
pushes (resync p90 ~300 ms, bench/RESULTS.md). Here the session, the user and the first
state are read in one call on a small pool of threads of their own, and pushes (which touch
no database) never leave the event loop.
"""

import asyncio
import collections
import json
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from importlib import import_module
from types import SimpleNamespace
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.exceptions import ChannelFull, StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import connections
from django.utils import translation

from social.presence import record_seen

from . import spectators
from .api import make_move
from .errors import Forbidden, NotFound
from .holders import HOLDER_FUSE, is_holder_queue
from .messages import sentence
from .models import Match
from .push import VERSION_TTL, encode, group_name, hello_text, stamp, version_key
from .selectors import get_match, match_payload, viewer_seat
from .tasks import moves_by_worker, send_move

log = logging.getLogger(__name__)

# Bounded: a burst of reconnects cannot take more database connections than this.
_DB_THREADS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="socket-db")
# A socket's moves trust the session it connected with for this long, then read it again.
SESSION_RECHECK = 30.0
# A move's message is ~150 bytes; anything much larger is not one of ours.
MAX_MESSAGE = 4096
# Moves a socket may have waiting for their answer (the page sends one at a time).
MAX_QUEUED_MOVES = 4
# Moves a socket may send: MOVE_RATE a second on average, MOVE_BURST at once. A page sends
# one move per position it was shown (a person's clicks, its auto-passes: a few a second).
# A move costs the database a statement or three, refused or not; one at a time per socket
# (above) still let a script send hundreds a second, each answered within milliseconds.
MOVE_RATE = 20.0
MOVE_BURST = 40
# How long a move sent to a worker unstored (services.send_move) waits for the worker's
# answer before this process stores it the POST's way: under the page's own wait (3 s, then
# it posts the move), far over a loaded worker's (bench/RESULTS.md: p95 ~15 ms at 200 games).
WORKER_ANSWER_WAIT = 2.0


class MoveBudget:
    """A token bucket, per socket, on the event loop (no lock, no I/O). Not pyrate-limiter
    (which the test tools bring): each of its limiters starts a thread that never ends."""

    def __init__(self, rate: float, burst: int, clock=time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = float(burst), clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def session_user(session_key):
    """The user a session cookie belongs to (AnonymousUser for none, expired or forged)."""
    if not session_key:
        return AnonymousUser()
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return auth.get_user(SimpleNamespace(session=store))


def _viewer(match_id, session_key, channel):
    """(user, seat): the session's user and their seat in the match (None: a spectator).
    In the same call, off the loop: a person is noted as online (social/presence.py: at most
    one cache write a minute), and a spectator's socket is counted (matches/spectators.py)."""
    try:
        user = session_user(session_key)
        seat = viewer_seat(get_match(match_id, with_state=False, seat_of=user), user)
        record_seen(user)
        if seat is None:
            spectators.joined(int(match_id), channel)
        return user, seat
    finally:
        connections.close_all()  # back to the pool (or closed): nothing outlives the call


def _move(match_id, user, session_key, content, language):
    """A move sent over the socket: the POST's status and body (api.make_move). Every
    SESSION_RECHECK s the session is read again (session_key set): a session that no longer
    belongs to the user who connected makes no move."""
    try:
        with translation.override(language):
            if session_key is not None and session_user(session_key).pk != user.pk:
                return 403, Forbidden("NOT_LOGGED_IN").payload()
            return make_move(match_id, user, content)
    finally:
        connections.close_all()


class LastUpdates:
    """The last update each group's sockets got in this web process: {group: (stamp, text,
    cut)}, the newest groups kept. A socket that reconnects while its match is still at that
    position gets its first message from here, with one read of the match row, where the
    snapshot replayed, projected and encoded cost ~6 ms of CPU (bench/RESULTS.md, issue
    16). Keyed by the group, which the server chose from the socket's seat: a seat's text
    only ever goes back to that seat. Written on the event loop; read there too."""

    def __init__(self, limit=4096):
        self.limit = limit
        self.kept = collections.OrderedDict()

    def remember(self, group, event) -> None:
        if event.get("stamp") is None or event.get("cut") is None:
            return  # a message that cannot be cut (not a push of matches/push.py)
        self.kept[group] = (event["stamp"], event["text"], int(event["cut"]))
        self.kept.move_to_end(group)
        if len(self.kept) > self.limit:
            self.kept.popitem(last=False)

    def get(self, group):
        return self.kept.get(group)


last_updates = LastUpdates()


def _hello(match_id, viewer, kept=None) -> str:
    """The socket's first message: the position now, with no events. From `kept` (the last
    update of the socket's group here) when the match row is still at its stamp; else the
    position rebuilt and projected."""
    try:
        # the row without its snapshot (~21 kB, compressed in PostgreSQL): read only when
        # the kept update will not do (positions.current_state reads it then)
        match = get_match(match_id, with_state=False)
        if kept is not None and kept[0] == stamp(match):
            return hello_text(kept[1], kept[2])
        state = match_payload(match, viewer)
    finally:
        connections.close_all()
    return encode({"type": "update", "version": match.version, "seq": match.seq,
                   "state": state, "events": []})  # fmt: skip  # as hello_text writes it


def _newest(match_id):
    """(version, seq) of the match's newest commit: the cache, else the database (then noted
    with `add`, which never overwrites a newer note the worker made meanwhile)."""
    key = version_key(match_id)
    noted = cache.get(key)
    if noted is not None:
        return noted
    try:
        row = Match.objects.filter(pk=match_id).values_list("version", "seq").first()
    finally:
        connections.close_all()
    newest = list(row or (0, 0))
    cache.add(key, newest, VERSION_TTL)
    return newest


def _off_loop(fn):
    return sync_to_async(fn, thread_sensitive=False, executor=_DB_THREADS)


def _move_body(content) -> dict:
    """A socket's "act" message as the POST's body."""
    return {k: content.get(k) for k in ("client_action_id", "expected_version", "action")}


def _too_many(content, language) -> dict:
    with translation.override(language):
        detail = sentence("TOO_MANY_MOVES")
    return {"type": "answer", "client_action_id": content.get("client_action_id"),
            "status": 429, "body": {"detail": detail, "code": "TOO_MANY_MOVES"}}  # fmt: skip


def _unreadable(code, language) -> dict:
    """The answer to a message the socket cannot read (it stays open)."""
    with translation.override(language):
        detail = sentence(code, {"limit": MAX_MESSAGE})
    return {"type": "error", "code": code, "detail": detail}


def _language(scope) -> str:
    """The page's language (its socket URL says ?lang=), else the default."""
    asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [""])[0]
    known = {code for code, _name in settings.LANGUAGES}
    return asked if asked in known else settings.LANGUAGE_CODE


class MatchConsumer(AsyncJsonWebsocketConsumer):
    group = None
    seat = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.moving = asyncio.Lock()
        self.budget = MoveBudget(MOVE_RATE, MOVE_BURST)
        self.moves = set()  # the running move tasks (a task nobody holds can be collected)
        self.awaiting = {}  # client_action_id -> future of a worker's answer (_send_to_worker)
        self.holder = ""  # the queue of the worker that pushed this game's last update
        self.fuses = set()  # moves being sent past a silent holder (_holder_silent)

    async def connect(self):
        match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.session_key = self.scope.get("cookies", {}).get(settings.SESSION_COOKIE_NAME)
        try:
            self.user, viewer = await _off_loop(_viewer)(
                match_id, self.session_key, self.channel_name
            )
        except (NotFound, Match.DoesNotExist):
            await self.close(code=4404)
            return
        self.seat = viewer
        self.session_read_at = self.watch_noted_at = time.monotonic()
        self.language = _language(self.scope)
        # Join the group BEFORE reading the state: a push committed in between then waits on
        # this socket's channel and follows the first state (the page drops it if older),
        # where reading first lost it for good (the page stayed behind until the next one).
        self.match_id = int(match_id)
        self.group = group_name(self.match_id, viewer)
        await self.channel_layer.group_add(self.group, self.channel_name)
        kept = last_updates.get(self.group)
        text = await _off_loop(_hello)(match_id, viewer, kept)
        await self.accept()
        await self.send(text_data=text)

    async def dispatch(self, message):
        # Channels' own dispatch first hops into its shared database thread to close stale
        # connections; no handler here uses the database outside _hello, which cleans up.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message):
        await self.disconnect(message["code"])
        raise StopConsumer()

    async def disconnect(self, code):
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            if self.seat is None:
                await _off_loop(spectators.left)(self.match_id, self.channel_name)

    async def _still_watching(self) -> None:
        """A spectator socket's count refreshed, at most every REFRESH s (spectators.py)."""
        if time.monotonic() - self.watch_noted_at > spectators.REFRESH:
            self.watch_noted_at = time.monotonic()
            await _off_loop(spectators.joined)(self.match_id, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        # Not Channels' JSON decoding: a malformed, too deep or oversized message is answered
        # with an "error" message and the socket stays, where a decoding error (or JSON nested
        # past the recursion limit: ~3 kB of brackets, issue 35) would end it.
        if self.group is None:
            return
        if text_data is None or len(text_data) > MAX_MESSAGE:
            await self.send_json(_unreadable("TOO_LARGE", self.language))
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError):
            await self.send_json(_unreadable("BAD_MESSAGE", self.language))
            return
        if not isinstance(content, dict):
            await self.send_json(_unreadable("BAD_MESSAGE", self.language))
            return
        if content.get("type") == "ping":
            await self.pong()
        elif content.get("type") == "act":
            # a script flooding us: no database work
            if len(self.moves) >= MAX_QUEUED_MOVES or not self.budget.take():
                await self.send_json(_too_many(content, self.language))
                return
            # Queued for a worker here when no move of this socket's is in flight: a turn of
            # the event loop less on the way of every move (bench/RESULTS.md, issue 16).
            tried = not self.moves
            sent = await self._send_to_worker(content) if tried else None
            # Beside this socket's other messages, not before them: in the embedded default a
            # move plays the bots' answers in the same call, and their pushes must reach the
            # page as they come, not all at once after the bots' turn.
            task = asyncio.create_task(self.act(content, sent, tried))
            self.moves.add(task)
            task.add_done_callback(self.moves.discard)

    async def act(self, content, sent=None, tried=False):
        """A move: answered with the POST's status and body. One at a time per socket (the
        lock): a socket has at most one move in flight. `tried`: `_send_to_worker` was
        called for it already; `sent`, what it gave."""
        async with self.moving:
            answer = await self._answer(content, sent, tried)
        try:
            await self.send(text_data=answer)
        except Exception:  # noqa: BLE001 - the socket closed meanwhile: the move stands
            log.info("a move's answer found its socket closed", exc_info=True)

    async def _answer(self, content, sent=None, tried=False) -> str:
        """The answer's text. A move goes to a worker unstored (`_send_to_worker`): the
        worker stores it in its drain's first round trip and answers after the commit, with
        the push, which spares the move the web's INSERT and its wait (bench/RESULTS.md,
        issue 16). Else, or when the worker says "not stored" (a stale or refused move: the
        POST's way says why) or says nothing in time, it is stored here as the POST does."""
        if self.seat is None:  # answered here: a spectator's socket costs no database work
            status = 403
            body = {"detail": "You are not playing in this match.", "code": "NOT_A_PLAYER"}
        else:
            recheck = time.monotonic() - self.session_read_at > SESSION_RECHECK
            key = self.session_key if recheck else None
            move = _move_body(content)
            if not tried:
                sent = await self._send_to_worker(content)
            if sent is not None:
                text = await self._worker_answer(move["client_action_id"], sent)
                if text:
                    return text
            status, body = await _off_loop(_move)(
                self.match_id, self.user, key, move, self.language
            )
            if recheck and status != 403:
                self.session_read_at = time.monotonic()
        return encode({"type": "answer", "client_action_id": content.get("client_action_id"),
                       "status": status, "body": body})  # fmt: skip

    async def _send_to_worker(self, content):
        """The move queued, unstored, for a worker; the future of the worker's answer, or
        None when it goes the POST's way: no worker stores moves here (the embedded
        default), the session is due to be read again, the socket is a spectator's, or the
        broker failed."""
        client_action_id = content.get("client_action_id")
        if (self.seat is None or not isinstance(client_action_id, str)
                or client_action_id in self.awaiting or not moves_by_worker()
                or time.monotonic() - self.session_read_at > SESSION_RECHECK):  # fmt: skip
            return None
        move = _move_body(content)
        loop = asyncio.get_running_loop()
        answered = loop.create_future()
        self.awaiting[client_action_id] = answered
        holder = self.holder
        try:
            await send_move(self.match_id, self.user, move, self.channel_name, holder)
        except Exception:  # noqa: BLE001 - the broker: the POST's way says what to say
            self.awaiting.pop(client_action_id, None)
            log.warning("a socket's move could not be queued", exc_info=True)
            return None
        if holder:
            fuse = loop.call_later(HOLDER_FUSE, self._holder_silent, move, answered)
            answered.add_done_callback(lambda _answered: fuse.cancel())
        return answered

    def _holder_silent(self, move, answered) -> None:
        """The move sent to its game's holder (matches/holders.py) has no answer after
        HOLDER_FUSE: it goes to the shared queue too, and this socket's moves go there until
        a push names a holder again. Lost on the way, the answer's wait still ends it."""
        if answered.done():
            return
        self.holder = ""
        task = asyncio.create_task(send_move(self.match_id, self.user, move, self.channel_name))
        self.fuses.add(task)
        task.add_done_callback(self._fuse_sent)

    def _fuse_sent(self, task) -> None:
        self.fuses.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a move could not be sent past its silent holder: %r", task.exception())

    async def _worker_answer(self, client_action_id, answered) -> str:
        """The worker's answer; "" when it was not stored or not answered within
        WORKER_ANSWER_WAIT."""
        try:
            return await asyncio.wait_for(answered, WORKER_ANSWER_WAIT)
        except TimeoutError:
            log.warning("no answer from a worker to a move on match %s", self.match_id)
            return ""
        finally:
            self.awaiting.pop(client_action_id, None)

    async def match_answer(self, event):
        """A worker's answer to a move of this socket's (`_send_to_worker`)."""
        answered = self.awaiting.get(event["client_action_id"])
        if answered is not None and not answered.done():
            answered.set_result(event["text"])

    async def pong(self):
        """The newest (version, seq), sent behind this socket's pushes already on their way.
        A worker notes the version and queues its push in one Redis call, so a note read
        here has its push queued ahead of our own message: sent directly, the pong could
        overtake it, and the page would resync for a push that was only a moment away
        (CI's daphne test saw that resync)."""
        version, seq = await _off_loop(_newest)(self.match_id)
        pong = {"type": "match.pong", "version": version, "seq": seq}
        try:
            await self.channel_layer.send(self.channel_name, pong)
        except ChannelFull:  # a full queue: the pong goes now (a resync at worst)
            await self.match_pong(pong)

    async def match_pong(self, event):
        await self.send_json({"type": "pong", "version": event["version"], "seq": event["seq"]})
        if self.seat is None:
            await self._still_watching()

    async def match_update(self, event):
        # The worker encoded each viewer's message once; the server only forwards the text.
        # Its queue (matches/holders.py) stays here: the page never sees it.
        holder = event.get("holder")
        self.holder = holder if is_holder_queue(holder) else ""
        last_updates.remember(self.group, event)
        await self.send(text_data=event["text"])
        if self.seat is None:
            await self._still_watching()

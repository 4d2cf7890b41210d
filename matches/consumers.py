"""The match socket: /ws/matches/<id>/. Server → client "update" messages; the client
may send only {"type": "ping"}, answered by {"type": "pong", version, seq}: the match's
newest commit, so a page whose socket went quiet finds out that a push never reached it.

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

from concurrent.futures import ThreadPoolExecutor
from importlib import import_module
from types import SimpleNamespace

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import connections

from .errors import NotFound
from .models import Match
from .push import VERSION_TTL, encode, group_name, version_key
from .selectors import get_match, match_payload, viewer_seat

# Bounded: a burst of reconnects cannot take more database connections than this.
_DB_THREADS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="socket-db")


def session_user(session_key):
    """The user a session cookie belongs to (AnonymousUser for none, expired or forged)."""
    if not session_key:
        return AnonymousUser()
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return auth.get_user(SimpleNamespace(session=store))


def _viewer(match_id, session_key):
    try:
        user = session_user(session_key)
        return viewer_seat(get_match(match_id, with_state=False, seat_of=user), user)
    finally:
        connections.close_all()  # back to the pool (or closed): nothing outlives the call


def _hello(match_id, viewer):
    try:
        match = get_match(match_id)
        state = match_payload(match, viewer)
    finally:
        connections.close_all()
    return {"type": "update", "version": match.version, "seq": match.seq, "events": [],
            "state": state}  # fmt: skip


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


class MatchConsumer(AsyncJsonWebsocketConsumer):
    group = None

    async def connect(self):
        match_id = self.scope["url_route"]["kwargs"]["match_id"]
        session_key = self.scope.get("cookies", {}).get(settings.SESSION_COOKIE_NAME)
        try:
            viewer = await _off_loop(_viewer)(match_id, session_key)
        except (NotFound, Match.DoesNotExist):
            await self.close(code=4404)
            return
        # Join the group BEFORE reading the state: a push committed in between then waits on
        # this socket's channel and follows the first state (the page drops it if older),
        # where reading first lost it for good (the page stayed behind until the next one).
        self.match_id = int(match_id)
        self.group = group_name(self.match_id, viewer)
        await self.channel_layer.group_add(self.group, self.channel_name)
        message = await _off_loop(_hello)(match_id, viewer)
        await self.accept()
        await self.send(text_data=encode(message))

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

    async def receive_json(self, content, **kwargs):
        # Actions go over HTTP (POST .../actions/); the socket only answers pings, with the
        # match's newest version: a page that heard nothing for a while asks, and resyncs
        # when a push never reached it.
        if isinstance(content, dict) and content.get("type") == "ping" and self.group:
            version, seq = await _off_loop(_newest)(self.match_id)
            await self.send_json({"type": "pong", "version": version, "seq": seq})

    async def match_update(self, event):
        # The worker encoded each viewer's message once; the server only forwards the text.
        await self.send(text_data=event["text"])

"""The match socket: /ws/matches/<id>/. Server → client only ("update" messages).

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
from django.db import connections

from .errors import NotFound
from .models import Match
from .push import encode, group_name
from .selectors import get_match, match_payload, viewer_seat

# Bounded: a burst of reconnects cannot take more database connections than this.
_DB_THREADS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="socket-db")


def session_user(session_key):
    """The user a session cookie belongs to (AnonymousUser for none, expired or forged)."""
    if not session_key:
        return AnonymousUser()
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return auth.get_user(SimpleNamespace(session=store))


def _hello(match_id, session_key):
    try:
        match = get_match(match_id)
        viewer = viewer_seat(match, session_user(session_key))
        state = match_payload(match, viewer)
    finally:
        connections.close_all()  # back to the pool (or closed): nothing outlives the call
    return viewer, {"type": "update", "version": match.version, "seq": match.seq,
                    "events": [], "state": state}  # fmt: skip


class MatchConsumer(AsyncJsonWebsocketConsumer):
    group = None

    async def connect(self):
        match_id = self.scope["url_route"]["kwargs"]["match_id"]
        session_key = self.scope.get("cookies", {}).get(settings.SESSION_COOKIE_NAME)
        hello = sync_to_async(_hello, thread_sensitive=False, executor=_DB_THREADS)
        try:
            viewer, message = await hello(match_id, session_key)
        except (NotFound, Match.DoesNotExist):
            await self.close(code=4404)
            return
        self.group = group_name(int(match_id), viewer)
        await self.channel_layer.group_add(self.group, self.channel_name)
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
        # Actions go over HTTP (POST .../actions/); the socket only answers pings.
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})

    async def match_update(self, event):
        # The worker encoded each viewer's message once; the server only forwards the text.
        await self.send(text_data=event["text"])

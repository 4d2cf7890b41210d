"""The lobby's quick-play socket: /ws/quickplay/.

Server → client: {"type": "status", counts, entry, wait_limit} as the answer to a ping;
{"type": "counts", counts} when the waiting counts change; {"type": "matched", match} when
the person's game is ready (the page then opens /play/<match>/).
Client → server: {"type": "ping"} when the socket opens and every few seconds after (the
heartbeat that keeps a waiting entry alive and retries its matching), {"type": "watch"}
(no answer) after the page joined a queue. Connecting reads only the session and the
person's waiting entry, and sends nothing: the page was rendered with the status, and a
page that wants it again pings (a crowd joining costs the socket threads one read each).

The person comes from the session cookie, never from the client. A socket watches the
waiting entry its person had when it connected (or when it sent "watch"); when the socket
closes, that entry leaves the queue: a closed page leaves no ghost. A crashed browser
sends no close either: its entry expires after QUICKPLAY_TTL without heartbeats.
"""

import json
import time
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import connections

from matches.consumers import session_user

from . import selectors, services
from .push import COUNTS_GROUP, person_group

_DB_THREADS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="quickplay-db")
MAX_MESSAGE = 512  # a ping or a watch is ~20 bytes
# A ping costs a few queries; the page pings every 5 s. Faster ones are not answered.
MIN_PING_INTERVAL = 1.0


def _off_loop(fn):
    return sync_to_async(fn, thread_sensitive=False, executor=_DB_THREADS)


def _closing(fn):
    """Run `fn` and give the thread's database connection back (or close it)."""

    def run(*args):
        try:
            return fn(*args)
        finally:
            connections.close_all()

    return run


@_closing
def _connect(session_key):
    user = session_user(session_key)
    entry = services.waiting_entry(user)
    return user, (entry.pk if entry else None)


@_closing
def _ping(user, entry_id):
    """The heartbeat and the status, the person's entry read once (by the matching)."""
    entry = services.heartbeat(user, entry_id) if user.is_authenticated else None
    return selectors.status(user, entry_id, known=entry)


@_closing
def _watch(user):
    entry = services.waiting_entry(user)
    return entry.pk if entry else None


@_closing
def _leave(user, entry_id):
    services.leave(user, entry_id)


class QueueConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.user, self.entry_id, self.pinged = None, None, -MIN_PING_INTERVAL
        session_key = self.scope.get("cookies", {}).get(settings.SESSION_COOKIE_NAME)
        self.user, self.entry_id = await _off_loop(_connect)(session_key)
        await self.channel_layer.group_add(COUNTS_GROUP, self.channel_name)
        if self.user.is_authenticated:
            await self.channel_layer.group_add(person_group(self.user.pk), self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(COUNTS_GROUP, self.channel_name)
        if self.user is not None and self.user.is_authenticated:
            await self.channel_layer.group_discard(person_group(self.user.pk), self.channel_name)
            if self.entry_id is not None:
                await _off_loop(_leave)(self.user, self.entry_id)

    async def receive(self, text_data=None, bytes_data=None):
        if not text_data or len(text_data) > MAX_MESSAGE:
            return
        try:
            kind = json.loads(text_data).get("type")
        except (ValueError, AttributeError):
            return
        if kind == "watch" and self.user.is_authenticated:
            self.entry_id = await _off_loop(_watch)(self.user)
        elif kind == "ping" and time.monotonic() - self.pinged >= MIN_PING_INTERVAL:
            self.pinged = time.monotonic()
            status = await _off_loop(_ping)(self.user, self.entry_id)
            await self.send(text_data=json.dumps(status))

    async def queue_matched(self, event):
        if self.entry_id is not None:
            self.entry_id = None  # the entry is no longer waiting: closing leaves nothing
        await self.send(text_data=json.dumps({"type": "matched", "match": event["match"]}))

    async def queue_counts(self, event):
        await self.send(text_data=json.dumps({"type": "counts", "counts": event["counts"]}))

"""The match socket: /ws/matches/<id>/. Server → client only ("update" messages).

The viewer comes from the session's user and the match's seats, never from the client:
players get their own projection, everybody else (also anonymous) the spectator view.
On connect the socket sends the current state at once, so a reconnect is a resync.
"""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from .errors import NotFound
from .models import Match
from .push import group_name
from .selectors import get_match, match_payload, viewer_seat


def _hello(match_id, user):
    match = get_match(match_id)
    viewer = viewer_seat(match, user)
    state = match_payload(match, viewer)
    return viewer, {"type": "update", "version": match.version, "seq": match.seq,
                    "events": [], "state": state}  # fmt: skip


class MatchConsumer(AsyncJsonWebsocketConsumer):
    group = None

    async def connect(self):
        match_id = self.scope["url_route"]["kwargs"]["match_id"]
        try:
            viewer, hello = await database_sync_to_async(_hello)(match_id, self.scope.get("user"))
        except (NotFound, Match.DoesNotExist):
            await self.close(code=4404)
            return
        self.group = group_name(int(match_id), viewer)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json(hello)

    async def disconnect(self, code):
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        # Actions go over HTTP (POST .../actions/); the socket only answers pings.
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})

    async def match_update(self, event):
        await self.send_json(event["payload"])

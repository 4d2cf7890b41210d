"""The personal socket, /ws/me/: the bell's live side. The person comes from the session
cookie as on the match socket (matches.consumers.session_user, read off the event loop);
an anonymous socket is accepted, then closed with NOT_LOGGED_IN. A person's socket joins
the group `user.<id>` (notifications/push.py) and says the unread count at once; the
server pushes {"type": "notification", unread, item} and {"type": "unread", unread}. The
client sends nothing."""

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import connections

from matches.consumers import session_user

from .push import group_name, unread_count

# The close code the bell's script (static/js/notifications/bell.js) reads as "logged out:
# do not reconnect". It reaches the browser only after accept(): a socket closed before it
# is refused with an HTTP 403, which the browser reports as 1006, and the script retried.
NOT_LOGGED_IN = 4401


def _person(session_key):
    """(user id or None, unread count), in one trip to a database thread."""
    try:
        user = session_user(session_key)
        if not user.is_authenticated:
            return None, 0
        return user.pk, unread_count(user.pk)
    finally:
        connections.close_all()


class BellConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self):
        session_key = self.scope.get("cookies", {}).get(settings.SESSION_COOKIE_NAME)
        self.user_id, unread = await sync_to_async(_person, thread_sensitive=False)(session_key)
        if self.user_id is None:
            await self.accept()  # so that the close code below reaches the page
            await self.close(code=NOT_LOGGED_IN)
            return
        self.group = group_name(self.user_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "unread", "unread": unread})

    async def disconnect(self, code):
        if getattr(self, "user_id", None) is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        pass  # nothing to say: the list and "mark read" go over HTTP

    async def bell_push(self, event):
        await self.send_json(event["message"])

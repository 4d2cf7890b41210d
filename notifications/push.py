"""The bell's live side: a person's socket (ws/me/, notifications/consumers.py) is in the
group `user.<id>`; whatever changes their bell sends it the unread count, and a new
notification's item, here. Push is at-most-once: the page reads the list over HTTP when it
loads, so a lost push costs nothing but liveness."""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation

from cardgame.language import current_language

from .messages import sentence, title
from .models import Notification

log = logging.getLogger(__name__)


def group_name(user_id: int) -> str:
    return f"user.{user_id}"


def in_language(url: str, language: str) -> str:
    """A stored link of the site (/hu/... or /en/...) in `language`: a notification keeps
    the link its source reversed, and each reader follows it in their own language."""
    for code, _name in settings.LANGUAGES:
        if url.startswith(f"/{code}/"):
            return f"/{language}/{url[len(code) + 2 :]}"
    return url


def item(notification: Notification) -> dict:
    """What the bell shows of one notification, in the active language."""
    return {
        "id": notification.pk,
        "kind": notification.kind,
        "title": title(notification.kind),
        "text": sentence(notification.kind, notification.context),
        "url": in_language(notification.url, current_language()),
        "read": notification.read_at is not None,
        "created": notification.created.isoformat(),
    }


def unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, on_site=True, read_at=None).count()


def send(user_id: int, message: dict) -> None:
    """One message to every socket of the person's (a lost one is only logged)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            group_name(user_id), {"type": "bell.push", "message": message}
        )
    except Exception:  # the channel layer is down: the page still reads the list over HTTP
        log.warning("no push to user %s's bell", user_id, exc_info=True)


def push_new(notification: Notification, language: str) -> None:
    """A new notification on the person's open pages, in their language."""
    with translation.override(language):
        payload = item(notification)
    send(
        notification.user_id,
        {"type": "notification", "unread": unread_count(notification.user_id), "item": payload},
    )


def push_unread(user_id: int) -> None:
    """The unread count after the person read something (their other tabs follow)."""
    send(user_id, {"type": "unread", "unread": unread_count(user_id)})

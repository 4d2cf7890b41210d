"""Quick play's pushes over the channel layer to the lobby's sockets (quickplay/consumers.py):
"matched: go to the game" to each matched person, and the waiting counts to everyone.

Sent after the commit that made them true. The counts go out at most once a second (a burst
of joins would otherwise send every lobby socket a message per join); each socket's ping
answer carries them too, so a count held back in a burst is at most a ping late.
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import transaction

from .selectors import counts

COUNTS_GROUP = "quickplay.counts"
COUNTS_EVERY = 1  # second
log = logging.getLogger(__name__)


def person_group(user_id: int) -> str:
    return f"quickplay.person.{user_id}"


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # noqa: BLE001 - a lost push: the page's status poll or ping finds it
        log.warning("quick play push to %s failed", group, exc_info=True)


def matched_after_commit(user_ids, match_id: int) -> None:
    """Each person's page hears that their game is ready (it then opens /play/<id>/)."""

    def send():
        for user_id in user_ids:
            _send(person_group(user_id), {"type": "queue.matched", "match": match_id})

    transaction.on_commit(send)


def counts_changed() -> None:
    """The waiting counts changed: tell every lobby socket (at most once a second)."""

    def send():
        if not cache.add("quickplay:counts-sent", 1, COUNTS_EVERY):
            return
        _send(COUNTS_GROUP, {"type": "queue.counts", "counts": counts()})

    transaction.on_commit(send)

"""Who is online: a person counts as online when seen within the last ONLINE_WINDOW.

Where "seen" is recorded (the choice of issue 37): on the match socket's connect
(matches/consumers.py, already off the event loop) and on the pages people keep open while
looking for a game: the lobby, the friends page and the live games list. Not in a
middleware: every request would then read the session and the user only to note them
(the socket's move path and the card API avoid that read on purpose), and a middleware
would add its own loop/thread switches under ASGI (tests/cardgame/test_asgi_middleware.py
counts them, issue 40). The notifications bell's socket, open on every page, may call
`record_seen` too.

Cheap: the cache (Redis in production, local memory in the embedded default), never the
database, and at most one cache write per person per RECORD_EVERY in each process (a
process-local note of when it last wrote). The cache key expires after ONLINE_WINDOW, so
nobody stays "online" after leaving and no key outlives its use.
"""

import threading
import time
from collections import OrderedDict

from django.core.cache import cache

ONLINE_WINDOW = 5 * 60  # seconds: seen this recently counts as online
RECORD_EVERY = 60  # seconds: at most one cache write per person per process this often
_NOTED_LIMIT = 20_000  # people this process remembers writing for (oldest forgotten first)


def _key(user_id: int) -> str:
    return f"social:seen:{user_id}"


class _Recent:
    """When this process last wrote each person's key (monotonic seconds), bounded."""

    def __init__(self, limit: int):
        self.limit = limit
        self.at = OrderedDict()
        self.lock = threading.Lock()

    def due(self, user_id: int, now: float) -> bool:
        """True (and noted) when the person's key was not written here for RECORD_EVERY."""
        with self.lock:
            last = self.at.get(user_id)
            if last is not None and now - last < RECORD_EVERY:
                return False
            self.at[user_id] = now
            self.at.move_to_end(user_id)
            if len(self.at) > self.limit:
                self.at.popitem(last=False)
            return True

    def forget(self) -> None:
        with self.lock:
            self.at.clear()


_recent = _Recent(_NOTED_LIMIT)


def record_seen(user) -> None:
    """Note that `user` (a user or a user id; anonymous: nothing) is here now."""
    user_id = getattr(user, "pk", user)
    if getattr(user, "is_authenticated", True) is False or not user_id:
        return
    if _recent.due(user_id, time.monotonic()):
        cache.set(_key(user_id), int(time.time()), ONLINE_WINDOW)


def seen_ids(user_ids) -> set[int]:
    """Those of `user_ids` seen within ONLINE_WINDOW: one cache read for them all."""
    ids = {int(i) for i in user_ids}
    if not ids:
        return set()
    found = cache.get_many([_key(i) for i in ids])
    now = time.time()
    return {
        i for i in ids if (seen := found.get(_key(i))) is not None and now - seen < ONLINE_WINDOW
    }


def forget_local_notes() -> None:
    """Tests: this process forgets when it last wrote (the next `record_seen` writes)."""
    _recent.forget()

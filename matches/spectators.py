"""How many people watch each game (issue 37's live list): the spectator sockets
(matches/consumers.py, seat None) join and leave here; players' sockets never do.

With REDIS_URL: one sorted set per match in that Redis, `match-spectators:<id>`, a member per
socket (its channel name) scored with the time it was last known open. A socket that closes
removes itself; one whose process died without saying so stops counting after STALE (only
members refreshed within it are counted) and its key expires STALE after the last write, so
no key outlives its game's watchers. An open socket refreshes its member every REFRESH.
Without REDIS_URL (the embedded default, one process): the same in this process's memory.

Counting is best effort: a Redis error is logged and the socket goes on.
"""

import functools
import logging
import threading
import time

from django.conf import settings

from cardgame.channel_layer import sync_client

STALE = 10 * 60  # seconds: a member not refreshed for this long no longer counts
REFRESH = 3 * 60  # seconds: how often an open spectator socket refreshes its member
log = logging.getLogger(__name__)


def key(match_id: int) -> str:
    return f"match-spectators:{match_id}"


class RedisCounts:
    """The sorted sets in the Redis of REDIS_URL (blocking client: called off the loop)."""

    def __init__(self, address: str):
        self.client = sync_client(address)

    def joined(self, match_id: int, channel: str) -> None:
        pipe = self.client.pipeline(transaction=False)
        pipe.zadd(key(match_id), {channel: time.time()})
        pipe.expire(key(match_id), STALE)
        pipe.execute()

    def left(self, match_id: int, channel: str) -> None:
        self.client.zrem(key(match_id), channel)

    def counts(self, match_ids) -> dict[int, int]:
        ids = list(match_ids)
        if not ids:
            return {}
        since = time.time() - STALE
        pipe = self.client.pipeline(transaction=False)
        for match_id in ids:
            pipe.zcount(key(match_id), since, "+inf")
        return dict(zip(ids, pipe.execute(), strict=True))


class MemoryCounts:
    """The embedded default's counts: {match id: {channel: time}} in this process."""

    def __init__(self):
        self.watching: dict[int, dict[str, float]] = {}
        self.lock = threading.Lock()

    def joined(self, match_id: int, channel: str) -> None:
        with self.lock:
            self.watching.setdefault(match_id, {})[channel] = time.time()

    def left(self, match_id: int, channel: str) -> None:
        with self.lock:
            sockets = self.watching.get(match_id, {})
            sockets.pop(channel, None)
            if not sockets:
                self.watching.pop(match_id, None)

    def counts(self, match_ids) -> dict[int, int]:
        since = time.time() - STALE
        with self.lock:
            return {
                m: sum(at >= since for at in self.watching.get(m, {}).values()) for m in match_ids
            }


@functools.cache
def _counts_for(address: str):
    return RedisCounts(address) if address else MemoryCounts()


def store():
    """The counts of this process's configuration (settings.REDIS_URL decides)."""
    return _counts_for(settings.REDIS_URL)


def joined(match_id: int, channel: str) -> None:
    """A spectator socket opened (or is still open: a refresh)."""
    try:
        store().joined(match_id, channel)
    except Exception:  # noqa: BLE001 - a count is not worth a socket
        log.warning("could not count a spectator of match %s", match_id, exc_info=True)


def left(match_id: int, channel: str) -> None:
    try:
        store().left(match_id, channel)
    except Exception:  # noqa: BLE001 - the member expires after STALE
        log.warning("could not uncount a spectator of match %s", match_id, exc_info=True)


def counts(match_ids) -> dict[int, int]:
    """{match id: spectators now} (0 when the count cannot be read)."""
    ids = list(match_ids)
    try:
        return store().counts(ids)
    except Exception:  # noqa: BLE001 - the list shows no counts rather than no games
        log.warning("could not read spectator counts", exc_info=True)
        return dict.fromkeys(ids, 0)

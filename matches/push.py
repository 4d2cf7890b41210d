"""After a commit: each viewer's own projection over the channel layer (at-most-once).

One group per viewer kind (each seat, spectators), so a socket only ever joins the
group its server-side seat allows and only ever receives engine.view projections.
"""

import asyncio
import logging
import os
import threading
import time

import orjson
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache

from cardgame.channel_layer import sync_client

from .models import Match
from .positions import current_state
from .selectors import match_payload, project_event


def viewers(match: Match) -> tuple:
    """Every seat of the match, then the spectators: (0, 1, None) for two players."""
    return (*range(match.seat_count), None)


VERSION_TTL = 24 * 3600  # seconds; a game idle for longer is read from the database
log = logging.getLogger(__name__)


def group_name(match_id: int, viewer: int | None) -> str:
    return f"match.{match_id}.{'public' if viewer is None else f'seat{viewer}'}"


def update_message(match: Match, viewer, state, raw_events, seats=None) -> dict:
    """{"type": "update", version, seq, events (projected for viewer), state (as GET)}."""
    return {
        "type": "update",
        "version": match.version,
        "seq": match.seq,
        "events": [project_event(seq, None, event, viewer) for seq, event in raw_events],
        "state": match_payload(match, viewer, state, seats),
    }


def version_key(match_id: int) -> str:
    return f"match-version:{match_id}"


def note_version(match: Match) -> None:
    """The newest committed (version, seq) of a match, where every socket can read it in one
    cache look-up: a page that hears nothing for a while asks for it (a ping) and resyncs
    when it is behind, so a push that never arrived costs at most that while."""
    key = version_key(match.pk)
    try:
        cache.set(key, [match.version, match.seq], VERSION_TTL)
    except Exception:  # a stale note would hide a lost push: rather none (the database answers)
        log.warning("could not note match %s's version", match.pk, exc_info=True)
        try:
            cache.delete(key)
        except Exception:  # noqa: BLE001 - the cache is down: its notes went with it
            pass


def push_update(match: Match, state, raw_events, seats=None) -> None:
    """Each viewer's message, encoded and sent here, after the commit (the caller may go on
    changing `state`: the worker's state cache hands it to the next drain). At-most-once:
    a push that fails is logged, and the page's ping finds out it is behind."""
    layer = get_channel_layer()
    if layer is None:
        note_version(match)
        return
    if state is None:
        state = current_state(match)  # None before the game starts

    def message(viewer):
        return lambda: encode(update_message(match, viewer, state, raw_events, seats))

    # Each text is made only for a group somebody is in: most games have no spectators, and
    # their projection and encoding were a third of the push's (py-spy of a worker).
    messages = [(group_name(match.pk, viewer), message(viewer)) for viewer in viewers(match)]
    if isinstance(layer, InMemoryChannelLayer):  # its queues live in the server's own loop
        note_version(match)
        async_to_sync(_group_sends)(layer, messages)
        return
    note = _pipelined_note(match, layer)
    if note is None:
        note_version(match)  # never raises: the push goes out whatever the cache does
    try:
        _send_all(layer, messages, note)
    except Exception:  # one lost push (the commit stands); the page's ping finds it out
        log.exception("push failed")


def _pipelined_note(match: Match, layer):
    """The version note as (key, value) for the push's own Redis pipeline, when the cache
    and the channel layer are the same one Redis (the cache's key and serialisation, so
    `cache.get` reads it as `note_version` would have written it); else None."""
    default = caches["default"]
    if not isinstance(default, RedisCache) or not _single_redis(layer):
        return None
    backend = default._cache
    servers = getattr(backend, "_servers", None) or []
    if len(servers) != 1 or servers[0] != layer.hosts[0].get("address"):
        return None
    key = default.make_and_validate_key(version_key(match.pk))
    return key, backend._serializer.dumps([match.version, match.seq])


def _single_redis(layer) -> bool:
    return isinstance(layer, RedisChannelLayer) and len(layer.hosts) == 1


def _send_all(layer, messages, note=None):
    """Every group's message (and the version note) in two Redis round trips when the
    layer is one Redis, from the caller's thread; otherwise each group through the layer.
    `messages`: (group, text), the text a string or a function making it, which is called
    only when the group has a member."""
    if _single_redis(layer):
        _send_pipelined(layer, messages, note)
        return
    async_to_sync(_group_sends)(layer, messages)


async def _group_sends(layer, messages):
    await asyncio.gather(
        *(
            layer.group_send(group, {"type": "match.update", "text": _made(text)})
            for group, text in messages
        )
    )


def _made(text) -> str:
    return text() if callable(text) else text


def _send_pipelined(layer, messages, note):
    """channels-redis's `group_send` for several groups at once (the same keys, expiries,
    capacity check and message format, so its receivers read them as their own): each
    group_send there costs four round trips, twelve for a push to three groups. Here: one
    pipeline for the note and every group's members, one for every channel's message.

    Sent by the worker's own thread on a blocking connection: an event loop in a thread of
    its own (as before) cost the worker ~0.9 ms of CPU per push in thread hand-offs and the
    asyncio client, more than the two round trips it saved the task (bench/RESULTS.md)."""
    client = _client(layer)
    now = time.time()
    pipe = client.pipeline(transaction=False)
    if note is not None:
        pipe.set(note[0], note[1], ex=VERSION_TTL)
    for group, _text in messages:
        key = layer._group_key(group)
        pipe.zremrangebyscore(key, min=0, max=int(now) - layer.group_expiry)
        pipe.zrange(key, 0, -1)
    results = pipe.execute()
    members = results[2 if note is not None else 1 :: 2]
    pipe = client.pipeline(transaction=False)
    evals = []  # the script's places among the pipeline's replies
    for (_group, text), names in zip(messages, members, strict=True):
        if not names:
            continue
        channels = [name.decode("utf8") for name in names]
        by_connection, payloads, capacities = layer._map_channel_keys_to_connection(
            channels, {"type": "match.update", "text": _made(text)}
        )
        for keys in by_connection.values():  # one host: index 0
            for key in keys:
                pipe.zremrangebyscore(key, min=0, max=int(now) - int(layer.expiry))
            args = [payloads[k] for k in keys] + [capacities[k] for k in keys]
            pipe.eval(_GROUP_SEND_LUA, len(keys), *keys, *args, now, layer.expiry)
            evals.append(len(pipe) - 1)
    if evals:
        results = pipe.execute()
        over = sum(results[i] for i in evals)
        expired = sum(results) - over
        if over or expired:
            log.warning("push: dropped %s message(s) of channels over capacity, %s expired "
                        "unread", over, expired)  # fmt: skip


_clients_lock = threading.Lock()
_clients = {}  # (pid, address) -> redis.Redis: one per process (a forked child makes its own)


def _client(layer):
    address = layer.hosts[0]["address"]
    key = (os.getpid(), address)
    with _clients_lock:
        if key not in _clients:
            _clients[key] = sync_client(address)
        return _clients[key]


# channels-redis 4's group_send script, as it is: add to each channel under its capacity.
_GROUP_SEND_LUA = """
    local over_capacity = 0
    local current_time = ARGV[#ARGV - 1]
    local expiry = ARGV[#ARGV]
    for i=1,#KEYS do
        if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
            redis.call('ZADD', KEYS[i], current_time, ARGV[i])
            redis.call('EXPIRE', KEYS[i], expiry)
        else
            over_capacity = over_capacity + 1
        end
    end
    return over_capacity
"""


def encode(payload) -> str:
    """Each viewer's message is encoded once, here, not by the web process per socket:
    compact JSON, as `json.dumps(payload, separators=(",", ":"), ensure_ascii=False)` wrote
    it, by orjson (a fifth of the stdlib's time for a ~10 kB view; int keys become strings
    as there)."""
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode()

"""After a commit: each viewer's own projection over the channel layer (at-most-once).

One group per viewer kind (each seat, spectators), so a socket only ever joins the
group its server-side seat allows and only ever receives engine.view projections.
"""

import asyncio
import functools
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

from .holders import own_queue
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


def update_text(match: Match, viewer, state, raw_events, seats=None) -> tuple[str, int]:
    """`update_message` encoded once for every socket of the viewer's group, and where its
    events begin: the state is written before them, so `hello_text` takes the events off
    without parsing the ~10 kB of JSON (a reconnect's first message, matches/consumers.py)."""
    message = update_message(match, viewer, state, raw_events, seats)
    events = message.pop("events")
    head = encode(message)[:-1] + ',"events":'
    return head + encode(events) + "}", len(head)


def hello_text(text: str, cut: int) -> str:
    """An update's text (`update_text`) without its events: the position alone."""
    return text[:cut] + "[]}"


def stamp(match: Match) -> str:
    """Which committed position of the match a message shows: its version and seq, and the
    row's `updated` (every save changes it, also one that moves no version: a judge's
    decision, a seat a bot takes over)."""
    return f"{match.version}:{match.seq}:{match.updated.isoformat()}"


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


def update_texts(match: Match, state, raw_events, seats=None) -> list:
    """Each viewer group's message for `push_update`: (group, (text, cut)), or a function
    making it. Touches no database when `state` and `seats` are given, so a drain makes
    them while its commit is out (matches/services/commit.py)."""

    def text(viewer) -> tuple[str, int]:
        return update_text(match, viewer, state, raw_events, seats)

    # A person's seat gets its text at once (somebody is almost always watching it); the
    # others' (a bot's seat, the spectators) are made only for a group somebody is in: most
    # games have no spectators, and their projection and encoding were a third of the
    # push's (py-spy of a worker).
    return [
        (group_name(match.pk, v), text(v) if _watched(v, seats) else functools.partial(text, v))
        for v in viewers(match)
    ]


def push_update(match: Match, state, raw_events, seats=None, answer=None, texts=None) -> None:
    """Each viewer's message, sent here, after the commit (the caller may go on changing
    `state`: the worker's state cache hands it to the next drain). At-most-once: a push
    that fails is logged, and the page's ping finds out it is behind. `answer`:
    (reply_to, client_action_id, text), a socket's move's answer sent with it (after the
    viewers' messages, in the same call: `send_answer`). `texts`: `update_texts` of this
    position made before; else they are made here."""
    layer = get_channel_layer()
    if layer is None:
        note_version(match)
        return
    if texts is None:
        if state is None:
            state = current_state(match)  # None before the game starts
        texts = update_texts(match, state, raw_events, seats)
    if isinstance(layer, InMemoryChannelLayer):  # its queues live in the server's own loop
        note_version(match)
        async_to_sync(_group_sends)(layer, texts, stamp(match), answer)
        return
    note = _scripted_note(match, layer)
    if note is None:
        note_version(match)  # never raises: the push goes out whatever the cache does
    try:
        _send_all(layer, texts, stamp(match), note, answer)
    except Exception:  # one lost push (the commit stands); the page's ping finds it out
        log.exception("push failed")


def answer_text(client_action_id, status: int, body: dict) -> str:
    """A move's answer as the socket sends it (matches/consumers.py)."""
    return encode({"type": "answer", "client_action_id": client_action_id, "status": status,
                   "body": body})  # fmt: skip


def send_answer(reply_to: str, client_action_id, text: str) -> None:
    """A socket's move's answer (`answer_text`; "": not stored, its web process goes the
    POST's way) to the socket's own channel, alone: a drain that pushed nothing. Lost, the
    web process waits for it a while, then goes the POST's way (matches/consumers.py)."""
    layer = get_channel_layer()
    if layer is None:
        return
    answer = (reply_to, client_action_id, text)
    try:
        if _single_redis(layer):
            _run_push_script(_push_script(layer), layer, [], "", None, answer)
        else:
            async_to_sync(_group_sends)(layer, [], "", answer)
    except Exception:  # noqa: BLE001 - the web process's wait ends it
        log.exception("a move's answer failed")


def _watched(viewer, seats) -> bool:
    """Whether a viewer's group is a person's seat (when the seats are known)."""
    if viewer is None or seats is None:
        return False
    seat = seats[viewer]
    return seat.user_id is not None and not seat.playing_bot


def _scripted_note(match: Match, layer):
    """The version note as (key, value) for the push's own script call, when the cache
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
    """One Redis and one capacity for every channel: what `_PUSH_LUA` does for it."""
    return (
        isinstance(layer, RedisChannelLayer)
        and len(layer.hosts) == 1
        and not layer.channel_capacity
    )


def _send_all(layer, messages, stamp_, note=None, answer=None):
    """Every group's message (and the version note) in ONE Redis round trip when the layer
    is one Redis, from the caller's thread; otherwise each group through the layer.
    `messages`: (group, made), `made` the (text, cut) of `update_text` or a function making
    it, which is called only when the group has a member. Each message carries the
    position's `stamp` and its `cut`, so a web process can answer a reconnect from it."""
    if _single_redis(layer):
        _send_scripted(layer, messages, stamp_, note, answer)
        return
    async_to_sync(_group_sends)(layer, messages, stamp_, answer)


async def _group_sends(layer, messages, stamp_, answer=None):
    await asyncio.gather(*(layer.group_send(group, _message(_made(made), stamp_))
                           for group, made in messages))  # fmt: skip
    if answer is not None:
        reply_to, client_action_id, text = answer
        await layer.send(reply_to, _answer_message(client_action_id, text))


def _answer_message(client_action_id, text) -> dict:
    return {"type": "match.answer", "client_action_id": client_action_id, "text": text}


def _message(made, stamp_) -> dict:
    text, cut = made
    return {"type": "match.update", "text": text, "cut": cut, "stamp": stamp_,
            "holder": own_queue()}  # fmt: skip


def _made(made) -> tuple[str, int]:
    return made() if callable(made) else made


def _send_scripted(layer, messages, stamp_, note, answer=None):
    """channels-redis's `group_send` for several groups at once, run by Redis itself
    (`_PUSH_LUA`: the same keys, expiries, capacity check and message format as
    channels-redis, so its receivers read them as their own). Each group_send there costs
    four round trips; a pipeline that first read the groups' members and then sent to
    them, two; this script, one. A text still to be made (a function: most games have no
    spectators) is made only when the script finds somebody in its group, and sent by a
    second call. Sent by the worker's own thread on a blocking connection (an event loop
    in a thread cost more than it saved: bench/RESULTS.md)."""
    script = _push_script(layer)
    at_once = [(group, made if not callable(made) else ("", 0)) for group, made in messages]
    wanted = _run_push_script(script, layer, at_once, stamp_, note, answer)
    if wanted:
        later = [(messages[i][0], _made(messages[i][1])) for i in wanted]
        _run_push_script(script, layer, later, stamp_, None)


def _run_push_script(script, layer, texts, stamp_, note, answer=None) -> list[int]:
    """One call of `_PUSH_LUA`; the indexes (into `texts`: (group, (text, cut))) of the
    groups that have members but no text yet."""
    keys = [layer._group_key(group) for group, _made in texts]
    reply_to, client_action_id, answer_text_ = answer or ("", "", "")
    if answer is not None:  # the socket's process's key, as channels-redis's send makes it
        keys.append(layer.prefix + layer.non_local_name(reply_to))
    if note is not None:
        keys.append(note[0])
    # channels-redis's receivers strip a 12-byte random prefix (it keeps equal messages
    # apart in the channel's sorted set): 8 random bytes here, 4 more per message there
    args = [time.time(), layer.group_expiry, int(layer.expiry), layer.capacity, layer.prefix,
            os.urandom(8), *(note[1:] if note is not None else ("",)), VERSION_TTL, stamp_,
            reply_to, client_action_id, answer_text_, own_queue(),
            *(part for _group, made in texts for part in made)]  # fmt: skip
    over, expired, wanted = script(keys=keys, args=args)
    if over or expired:
        log.warning("push: dropped %s message(s) of channels over capacity, %s expired "
                    "unread", over, expired)  # fmt: skip
    return [int(index) - 1 for index in wanted]


_clients_lock = threading.Lock()
_clients = {}  # (pid, address) -> the script on a redis.Redis: one per process (a fork: its own)


def _push_script(layer):
    """`_PUSH_LUA` on this process's blocking client to the layer's Redis (EVALSHA; the
    script is loaded again by itself after a Redis restart)."""
    address = layer.hosts[0]["address"]
    key = (os.getpid(), address)
    with _clients_lock:
        if key not in _clients:
            _clients[key] = sync_client(address).register_script(_PUSH_LUA)
        return _clients[key]


# KEYS: each group's key, the answer's channel key when there is an answer, then the
# version note's key when there is a note.
# ARGV: now, group expiry, message expiry, capacity, the layer's prefix, 8 random bytes,
# the note's value ("" for none), its time to live, the position's stamp, the answer's
# channel ("" for none), client_action_id and text, this worker's own queue ("": none;
# matches/holders.py), then each group's text ("": not made) and cut (where its events
# begin).
# For each group, as channels-redis's group_send: drop members past the group expiry, and
# per receiving process (the channel key: the prefix and the name up to its "!") drop
# expired messages, then add the message unless the key is at capacity; the message is
# channels-redis's msgpack of {type, text, cut, stamp, holder, __asgi_channel__: [channels]}
# behind 12 bytes. The answer, as channels-redis's send to one channel: after the groups'
# messages (its 4 bytes sort after theirs), {type, client_action_id, text,
# __asgi_channel__: the channel}.
_PUSH_LUA = """
local now = tonumber(ARGV[1])
local group_expiry = tonumber(ARGV[2])
local expiry = tonumber(ARGV[3])
local capacity = tonumber(ARGV[4])
local prefix = ARGV[5]
local nonce = ARGV[6]
local stamp = ARGV[9]
local reply_to = ARGV[10]
local groups = #KEYS
if ARGV[7] ~= '' then
    redis.call('SET', KEYS[#KEYS], ARGV[7], 'EX', ARGV[8])
    groups = groups - 1
end
if reply_to ~= '' then
    groups = groups - 1
end
local over, expired, wanted = 0, 0, {}
for g = 1, groups do
    redis.call('ZREMRANGEBYSCORE', KEYS[g], 0, math.floor(now) - group_expiry)
    local members = redis.call('ZRANGE', KEYS[g], 0, -1)
    local text = ARGV[12 + 2 * g]
    local cut = tonumber(ARGV[13 + 2 * g])
    if #members > 0 and text == '' then
        table.insert(wanted, g)
    elseif #members > 0 then
        local by_key, order = {}, {}
        for _, channel in ipairs(members) do
            local bang = string.find(channel, '!', 1, true)
            local key = prefix .. (bang and string.sub(channel, 1, bang) or channel)
            if by_key[key] == nil then
                by_key[key] = {}
                table.insert(order, key)
            end
            table.insert(by_key[key], channel)
        end
        for i, key in ipairs(order) do
            expired = expired + redis.call('ZREMRANGEBYSCORE', key, 0, math.floor(now) - expiry)
            if redis.call('ZCOUNT', key, '-inf', '+inf') < capacity then
                local body = cmsgpack.pack({type = 'match.update', text = text, cut = cut,
                                            stamp = stamp, holder = ARGV[13],
                                            __asgi_channel__ = by_key[key]})
                local unique = string.format('%02d%02d', g % 100, i % 100)
                redis.call('ZADD', key, now, nonce .. unique .. body)
                redis.call('EXPIRE', key, expiry)
            else
                over = over + 1
            end
        end
    end
end
if reply_to ~= '' then
    local key = KEYS[groups + 1]
    expired = expired + redis.call('ZREMRANGEBYSCORE', key, 0, math.floor(now) - expiry)
    if redis.call('ZCOUNT', key, '-inf', '+inf') < capacity then
        local body = cmsgpack.pack({type = 'match.answer', client_action_id = ARGV[11],
                                    text = ARGV[12], __asgi_channel__ = reply_to})
        redis.call('ZADD', key, now, nonce .. '9999' .. body)
        redis.call('EXPIRE', key, expiry)
    else
        over = over + 1
    end
end
return {over, expired, wanted}
"""


def encode(payload) -> str:
    """Each viewer's message is encoded once, here, not by the web process per socket:
    compact JSON, as `json.dumps(payload, separators=(",", ":"), ensure_ascii=False)` wrote
    it, by orjson (a fifth of the stdlib's time for a ~10 kB view; int keys become strings
    as there)."""
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode()

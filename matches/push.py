"""After a commit: each viewer's own projection over the channel layer (at-most-once).

One group per viewer kind (each seat, spectators), so a socket only ever joins the
group its server-side seat allows and only ever receives engine.view projections.
"""

import asyncio
import json
import logging
import os
import threading

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.core.cache import cache

from engine.serialize import load

from .models import Match
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
    note_version(match)  # never raises: the push goes out whatever the cache does
    layer = get_channel_layer()
    if layer is None:
        return
    if state is None and match.state:
        state = load(match.state)
    messages = [
        (group_name(match.pk, viewer), update_message(match, viewer, state, raw_events, seats))
        for viewer in viewers(match)
    ]
    if isinstance(layer, InMemoryChannelLayer):  # its queues live in the server's own loop
        async_to_sync(_send_all)(layer, messages)
        return
    loop, queue = _sender()
    loop.call_soon_threadsafe(queue.put_nowait, (layer, messages))


async def _send_all(layer, messages):
    """One hop into the event loop for every group (not one per group), sent side by
    side so that their Redis round trips overlap."""
    await asyncio.gather(
        *(
            layer.group_send(group, {"type": "match.update", "text": encode(payload)})
            for group, payload in messages
        )
    )


def encode(payload) -> str:
    """Each viewer's message is encoded once, here, not by the web process per socket."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


_sender_lock = threading.Lock()
_sender_state = {"pid": None, "loop": None, "queue": None}


def _sender():
    """One long-lived event loop per process with one sending coroutine: channels-redis keeps
    its connections per loop (so they are reused), pushes leave in the order they were made,
    and the worker goes on to its next task without waiting for Redis (push is at-most-once;
    clients resync by seq)."""
    with _sender_lock:
        if _sender_state["pid"] != os.getpid() or _sender_state["loop"].is_closed():
            loop = asyncio.new_event_loop()
            queue = asyncio.Queue()
            threading.Thread(target=loop.run_forever, name="matches-push", daemon=True).start()
            asyncio.run_coroutine_threadsafe(_send_forever(queue), loop)
            _sender_state.update(pid=os.getpid(), loop=loop, queue=queue)
        return _sender_state["loop"], _sender_state["queue"]


async def _send_forever(queue):
    while True:
        layer, messages = await queue.get()
        try:
            await _send_all(layer, messages)
        except Exception:  # one lost push; the client resyncs by seq
            log.exception("push failed")


def flush(timeout=5.0) -> None:
    """Wait until the queued pushes are sent (tests, and a worker shutting down)."""
    import time

    state = _sender_state
    if state["queue"] is None:
        return
    deadline = time.monotonic() + timeout
    while state["queue"].qsize() and time.monotonic() < deadline:
        time.sleep(0.005)

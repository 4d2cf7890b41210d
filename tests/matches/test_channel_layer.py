"""The channel layer's receive (cardgame/channel_layer.py, issue 16): one Redis round trip
for every message waiting for the process, and a receive cancelled in flight still loses
nothing (real Redis)."""

import asyncio
import time
from unittest import mock

import pytest
from redis.asyncio.client import Redis

from cardgame.channel_layer import RedisChannelLayer


def _count_commands():
    counted = []
    real = Redis.execute_command

    async def counting(self, *args, **options):
        counted.append(args[0])
        return await real(self, *args, **options)

    return counted, mock.patch.object(Redis, "execute_command", counting)


def test_a_message_is_received_with_one_round_trip_and_no_backup_queue(redis_url):
    layer = RedisChannelLayer(hosts=[redis_url])
    counted, patch = _count_commands()

    async def scenario():
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "match.update", "text": "v1"})
        with patch:
            message = await layer.receive(channel)
            await asyncio.sleep(0.05)  # the (empty) clean-up task, had it sent anything
        keys = await layer.connection(0).keys("*")
        await layer.flush()
        return message, keys

    message, keys = asyncio.run(scenario())
    assert message == {"type": "match.update", "text": "v1"}
    assert counted == ["BZMPOP"]
    assert not [key for key in keys if key.endswith(b"$inflight")]


async def _one_at_a_time(layer, channel):
    await layer.send(channel, {"type": "match.update", "text": "a"})
    await layer.send(channel, {"type": "match.update", "text": "b"})


async def _together(layer, channel):
    """Both messages in one ZADD, as the push's script adds both players' at once."""
    key = layer.prefix + layer.non_local_name(channel)
    now = time.time()
    messages = [{"type": "match.update", "text": t, "__asgi_channel__": channel} for t in "ab"]
    await layer.connection(0).zadd(
        key, {layer.serialize(message): now + i for i, message in enumerate(messages)}
    )


@pytest.mark.parametrize("deliver", [_one_at_a_time, _together])
def test_a_receive_cancelled_while_its_pop_waits_loses_no_message(redis_url, deliver):
    """A socket that closes while the process's shared BZMPOP waits (it may be waiting
    for another socket's message): whatever it then pops (the first message, or both when
    they came together) is put back, in its place, and the next receives get them in
    order."""
    layer = RedisChannelLayer(hosts=[redis_url])
    layer.brpop_timeout = 2  # the shielded pop of the cancelled receive ends soon after

    async def scenario():
        first, second = await layer.new_channel(), await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(first))
        await asyncio.sleep(0.2)  # its BZMPOP is blocked in Redis now
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        await deliver(layer, second)
        await asyncio.sleep(0.2)  # the shielded pop took what came and put it back
        waiting_in_redis = await layer.connection(0).zcard(
            layer.prefix + layer.non_local_name(second)
        )
        got = [await asyncio.wait_for(layer.receive(second), 3) for _ in range(2)]
        await layer.flush()
        return waiting_in_redis, got

    waiting_in_redis, got = asyncio.run(scenario())
    assert waiting_in_redis == 2
    assert [m["text"] for m in got] == ["a", "b"]


def test_the_messages_waiting_for_a_process_come_in_one_round_trip_in_their_order(redis_url):
    """A push for both players of a game whose sockets are on one web process is two
    messages on the process's one channel key: both come with one command, the second
    socket's from the process's memory, and later messages after them, in order."""
    layer = RedisChannelLayer(hosts=[redis_url])
    counted, patch = _count_commands()

    async def scenario():
        seat0, seat1 = await layer.new_channel(), await layer.new_channel()
        await layer.send(seat0, {"type": "match.update", "text": "v1 seat0"})
        await layer.send(seat1, {"type": "match.update", "text": "v1 seat1"})
        with patch:
            got = [await layer.receive(seat0), await layer.receive(seat1)]
        await layer.send(seat1, {"type": "match.update", "text": "v2 seat1"})
        await layer.send(seat1, {"type": "match.update", "text": "v3 seat1"})
        got += [await layer.receive(seat1), await layer.receive(seat1)]
        await layer.flush()
        return got

    got = asyncio.run(scenario())
    assert [m["text"] for m in got] == ["v1 seat0", "v1 seat1", "v2 seat1", "v3 seat1"]
    assert counted == ["BZMPOP"]


def test_a_flush_also_drops_the_messages_popped_but_not_yet_received(redis_url):
    """What one pop took beyond the receive it served waits in the process; a flush (the
    tests' reset between cases) empties it with Redis, so nothing from before reaches a
    receive after it."""
    layer = RedisChannelLayer(hosts=[redis_url])

    async def scenario():
        channel = await layer.new_channel()
        for text in ("old 1", "old 2"):
            await layer.send(channel, {"type": "match.update", "text": text})
        first = await layer.receive(channel)  # "old 2" now waits in the process
        await layer.flush()
        await layer.send(channel, {"type": "match.update", "text": "new"})
        after = await asyncio.wait_for(layer.receive(channel), 3)
        await layer.flush()
        return first, after

    first, after = asyncio.run(scenario())
    assert (first["text"], after["text"]) == ("old 1", "new")

"""The channel layer's receive (cardgame/channel_layer.py, issue 16): one Redis round trip
for every message waiting for the process, and a receive cancelled in flight still loses
nothing (real Redis)."""

import asyncio
import time
from unittest import mock

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


def test_a_receive_cancelled_while_its_pop_waits_loses_no_message(redis_url):
    """A socket that closes while the process's shared BZMPOP waits (it may be waiting
    for another socket's message): the message it then pops is put back, in its place,
    and the next receive gets it; later messages come after it."""
    layer = RedisChannelLayer(hosts=[redis_url])
    layer.brpop_timeout = 2  # the shielded pop of the cancelled receive ends soon after

    async def scenario():
        first, second = await layer.new_channel(), await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(first))
        await asyncio.sleep(0.2)  # its BZMPOP is blocked in Redis now
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        await layer.send(second, {"type": "match.update", "text": "a"})
        await layer.send(second, {"type": "match.update", "text": "b"})
        await asyncio.sleep(0.2)  # the shielded pop took "a" and put it back
        got = [await asyncio.wait_for(layer.receive(second), 3) for _ in range(2)]
        await layer.flush()
        return got

    got = asyncio.run(scenario())
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


def test_a_cancelled_receive_puts_back_every_message_its_pop_took(redis_url):
    """The pop of a receive cancelled while it waits takes the two messages that arrive
    together (one ZADD, as the push's script adds both players' at once): both go back in
    their order, and the next receives get them."""
    layer = RedisChannelLayer(hosts=[redis_url])
    layer.brpop_timeout = 2

    async def scenario():
        first, second = await layer.new_channel(), await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(first))
        await asyncio.sleep(0.2)  # its BZMPOP is blocked in Redis now
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
        key = layer.prefix + layer.non_local_name(second)
        now = time.time()
        both = {
            layer.serialize({"type": "match.update", "text": text, "__asgi_channel__": second}): now
            + i
            for i, text in enumerate(["a", "b"])
        }
        await layer.connection(0).zadd(key, both)
        await asyncio.sleep(0.2)  # the shielded pop took both and put them back
        assert await layer.connection(0).zcard(key) == 2
        got = [await asyncio.wait_for(layer.receive(second), 3) for _ in range(2)]
        await layer.flush()
        return got

    got = asyncio.run(scenario())
    assert [m["text"] for m in got] == ["a", "b"]

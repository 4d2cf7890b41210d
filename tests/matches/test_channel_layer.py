"""The channel layer's receive (cardgame/channel_layer.py, issue 16): one Redis round trip
per message, and a receive cancelled in flight still loses nothing (real Redis)."""

import asyncio
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
    assert counted == ["BZPOPMIN"]
    assert not [key for key in keys if key.endswith(b"$inflight")]


def test_a_receive_cancelled_while_its_pop_waits_loses_no_message(redis_url):
    """A socket that closes while the process's shared BZPOPMIN waits (it may be waiting
    for another socket's message): the message it then pops is put back, in its place,
    and the next receive gets it; later messages come after it."""
    layer = RedisChannelLayer(hosts=[redis_url])
    layer.brpop_timeout = 2  # the shielded pop of the cancelled receive ends soon after

    async def scenario():
        first, second = await layer.new_channel(), await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(first))
        await asyncio.sleep(0.2)  # its BZPOPMIN is blocked in Redis now
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

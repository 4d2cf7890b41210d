"""How a web or worker process talks to the channel layer's Redis (settings.CHANNEL_LAYERS).

One function, so the settings and the tests build the same connection options."""

import asyncio
import collections
import functools

import redis
from channels_redis import core
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.retry import Retry as SyncRetry

# The longest a layer connection waits for one Redis reply. It must outlast the layer's
# blocking receive (channels-redis's brpop_timeout, 5 s): see layer_host.
SOCKET_READ_TIMEOUT = 30


def layer_host(address: str) -> dict:
    return {
        "address": address,
        # redis-py caps a pool at 100 connections and then fails the command ("Too many
        # connections", a 500 on connect): a burst of reconnects each holds one for its
        # group_add while the pushes hold others.
        "max_connections": 1000,
        # A pooled connection is dead after a Redis restart; without one retry on a fresh
        # connection its first use failed: a socket's connect after Redis was back (the
        # page backed off and stayed stale for seconds), or a worker's push (lost). Once,
        # at once: a Redis that is really down still fails fast and the socket closes, so
        # the page reconnects and resyncs.
        "retry": Retry(NoBackoff(), 1),
        "retry_on_error": [RedisConnectionError],
        # A socket's receive is a BZMPOP that Redis answers after brpop_timeout (5 s)
        # when nothing came; redis-py 8 reads every reply with a 5 s socket timeout by
        # default, so an idle socket's receive raced it and sometimes died with "Timeout
        # reading from" (the consumer gone, the page silent ~10 s until it reconnected).
        "socket_timeout": SOCKET_READ_TIMEOUT,
    }


def sync_client(address: str) -> redis.Redis:
    """A blocking client to the layer's Redis with the same options (the workers' pushes,
    matches/push.py: sent from the task's own thread, no event loop)."""
    return redis.Redis.from_url(
        address,
        socket_timeout=SOCKET_READ_TIMEOUT,
        retry=SyncRetry(NoBackoff(), 1),
        retry_on_error=[RedisConnectionError],
    )


# The most messages one receive takes from Redis at once (the rest wait in the process).
POP_COUNT = 64


class RedisChannelLayer(core.RedisChannelLayer):
    """channels-redis's layer, the messages waiting for a process received in ONE round trip.

    channels-redis receives a message with a Lua clean-up script, the BZPOPMIN, a ZADD of
    the message into a backup queue, and a ZPOPMIN of it after, so that a receive cancelled
    while its BZPOPMIN is in flight loses nothing; and the process's next receive waits for
    all four. A web process receives every push of its sockets there: the second socket of
    a game got its update ~0.8 ms after the first (bench/RESULTS.md, issue 16).

    Here one BZMPOP takes every message waiting for the process (up to POP_COUNT; a push
    for both players of a game on one web process is two), shielded from the cancel: what
    it pops for a receive cancelled meanwhile goes back where it was (ZADD with its own
    score), which is what the backup queue was for. The next receives take the rest from
    the process's memory with no round trip, in the order Redis had them. Messages, groups
    and capacity are channels-redis's own.
    """

    async def _brpop_with_clean(self, index, channel, timeout):
        popped = self._popped.get(channel)
        if popped:  # no await before the return: a cancel cannot lose it
            return popped.popleft()
        connection = self.connection(index)
        # A process's own channel (its name ends with "!") is read by this process alone;
        # a shared one's messages are left for the other processes' receives.
        count = POP_COUNT if channel.endswith("!") else 1
        pop = asyncio.ensure_future(connection.bzmpop(timeout, 1, [channel], min=True, count=count))
        try:
            result = await asyncio.shield(pop)
        except asyncio.CancelledError:
            pop.add_done_callback(functools.partial(_put_back, connection, self._put_backs))
            raise
        if result is None:
            return None
        first, *rest = (member for member, _score in result[1])
        if rest:
            self._popped.setdefault(channel, collections.deque()).extend(rest)
        return first

    async def _clean_receive_backup(self, index, channel):
        """No backup queue to clean (see the class)."""

    async def flush(self):
        """channels-redis's flush, and the messages popped but not yet received with it."""
        self._popped.clear()
        await super().flush()

    @functools.cached_property
    def _popped(self) -> dict:
        return {}  # channel key -> the messages popped with another one, not yet received

    @functools.cached_property
    def _put_backs(self) -> set:
        return set()  # the tasks putting messages back (a task nobody holds can be collected)


def _put_back(connection, tasks, pop) -> None:
    if pop.cancelled() or pop.exception() is not None or pop.result() is None:
        return
    key, members = pop.result()
    task = asyncio.ensure_future(
        connection.zadd(key, {member: float(score) for member, score in members})
    )
    tasks.add(task)
    task.add_done_callback(tasks.discard)

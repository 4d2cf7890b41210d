"""Celery's Redis transport (kombu's own), with one client object per channel.

kombu's Redis channel builds a new `redis.Redis` object for every bookkeeping command it
sends without a client: the unacked entry it records when a task arrives and removes when
the task is acknowledged (`acks_late`), and every publish. A `redis.Redis` object is a
connection pool's façade that redis-py rebuilds with its table of reply callbacks each
time: two or three per move cost a worker ~0.2 ms of CPU, about 5 % of its whole share of a
move (py-spy, bench/RESULTS.md, issue 16). The object holds no connection of its own and is
safe to share between threads, so each channel keeps one per connection pool and makes a
new one when kombu replaces the pool (after a fork or a lost connection).

Everything else is kombu's: the same commands, keys and delivery guarantees.
Selected by `CELERY_BROKER_TRANSPORT` (cardgame/settings.py) when the broker is Redis.
"""

from kombu.transport import redis


class Channel(redis.Channel):
    _kgk_client = None  # (pool, client)

    def _create_client(self, asynchronous=False):
        if asynchronous:  # the consumer's own BRPOP client: kombu already keeps that one
            return super()._create_client(asynchronous=True)
        pool = self.pool
        held = self._kgk_client
        if held is None or held[0] is not pool:
            held = self._kgk_client = (pool, super()._create_client())
        return held[1]


class Transport(redis.Transport):
    Channel = Channel

"""Celery's Redis transport (kombu's own), with one client object per channel, and no
unacked record for the tasks the clock sweep brings back by itself.

One client: kombu's Redis channel builds a new `redis.Redis` object for every bookkeeping
command it sends without a client: the unacked entry it records when a task arrives and
removes when the task is acknowledged (`acks_late`), and every publish. A `redis.Redis`
object is a connection pool's façade that redis-py rebuilds with its table of reply
callbacks each time: two or three per move cost a worker ~0.2 ms of CPU, about 5 % of its
whole share of a move (py-spy, bench/RESULTS.md, issue 16). The object holds no connection
of its own and is safe to share between threads, so each channel keeps one per connection
pool and makes a new one when kombu replaces the pool (after a fork or a lost connection).

No unacked record (`swept_tasks`, a transport option): kombu writes a JSON copy of every
task it delivers into Redis before the task runs (one round trip, on the path of every
move) and deletes it after the acknowledgement (another), so that a task of a worker that
died comes back after the visibility timeout. The match tasks do not need that: what they
do stays due in the database (a pending request, a bot's turn, a deadline passed) and the
clock sweep (matches/clocks_sweep.py) queues it again within seconds, sooner than the
timeout would. For those tasks the record stays in the worker's memory only, as kombu's
in-memory transports keep it: the prefetch limit still counts them, and a task rejected
with requeue or left unacknowledged at a warm shutdown still goes back to its queue, from
the copy held here. Every other task (the deck lab's chunks) keeps kombu's record.

Everything else is kombu's: the same commands, keys and delivery guarantees.
Selected by `CELERY_BROKER_TRANSPORT` (cardgame/settings.py) when the broker is Redis.
"""

from kombu.transport import redis, virtual


class QoS(redis.QoS):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._unrecorded = set()  # delivery tags held in memory only

    def append(self, message, delivery_tag):
        if message.headers.get("task") in self.channel.swept_tasks:
            self._unrecorded.add(delivery_tag)
            virtual.QoS.append(self, message, delivery_tag)
        else:
            super().append(message, delivery_tag)

    def ack(self, delivery_tag):
        if delivery_tag in self._unrecorded:
            self._unrecorded.discard(delivery_tag)
            virtual.QoS.ack(self, delivery_tag)
        else:
            super().ack(delivery_tag)

    def reject(self, delivery_tag, requeue=False):
        if delivery_tag in self._unrecorded:
            if requeue:
                self._put_back(self._delivered[delivery_tag])
            self._unrecorded.discard(delivery_tag)
            virtual.QoS.ack(self, delivery_tag)
        else:
            super().reject(delivery_tag, requeue)

    def restore_unacked(self, client=None):
        self._flush()
        for tag in [t for t in self._delivered if t in self._unrecorded]:
            self._put_back(self._delivered.pop(tag))
        self._unrecorded.clear()
        super().restore_unacked(client)

    def _put_back(self, message):
        """Back to the head of its queue, marked redelivered, as kombu restores a record."""
        info = message.delivery_info
        with self.channel.conn_or_acquire() as client, client.pipeline() as pipe:
            self.channel._do_restore_message(
                message._raw, info["exchange"], info["routing_key"], pipe, leftmost=True
            )
            pipe.execute()


class Channel(redis.Channel):
    QoS = QoS
    swept_tasks = frozenset()  # names of the tasks that get no unacked record (above)
    from_transport_options = redis.Channel.from_transport_options + ("swept_tasks",)
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

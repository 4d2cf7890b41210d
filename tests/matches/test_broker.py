"""cardgame/broker.py on real Redis: the match tasks the clock sweep brings back get no
unacked record in Redis (one round trip and a JSON copy less before each drain, one less
after), every other task keeps kombu's; either way a task rejected with requeue, or still
unacknowledged at a warm shutdown, goes back to its queue."""

import pytest
from django.conf import settings
from kombu import Connection, Exchange, Producer, Queue

from matches import tasks

SWEPT = "matches.tasks.drain_match"
QUEUE = "kgk-broker-qos-test"


@pytest.fixture
def channel(redis_url):
    options = {"swept_tasks": [SWEPT]}
    with Connection(
        redis_url, transport="cardgame.broker:Transport", transport_options=options
    ) as connection:
        channel = connection.channel()
        queue = Queue(QUEUE, Exchange(QUEUE), QUEUE)
        queue(channel).declare()
        channel.test_queue = queue
        yield channel
        channel.queue_purge(QUEUE)
        channel.close()


def _publish(channel, task_name, body):
    Producer(channel).publish(
        body, exchange=channel.test_queue.exchange, routing_key=QUEUE, headers={"task": task_name}
    )


def _take(channel):
    message = channel.basic_get(QUEUE, no_ack=False)
    assert message is not None
    return message


def _recorded(channel, message) -> bool:
    client = channel.client
    return bool(client.hexists(channel.unacked_key, message.delivery_tag))


def test_a_swept_task_gets_no_unacked_record_and_any_other_task_does(channel):
    _publish(channel, SWEPT, {"n": 1})
    _publish(channel, "decklab.tasks.play_chunk", {"n": 2})
    swept, other = _take(channel), _take(channel)
    assert swept.payload == {"n": 1} and other.payload == {"n": 2}
    assert not _recorded(channel, swept)
    assert _recorded(channel, other)
    assert set(channel.qos._delivered) == {swept.delivery_tag, other.delivery_tag}  # prefetch
    swept.ack()
    other.ack()
    assert not _recorded(channel, other)
    assert channel.qos._unrecorded == set()
    assert channel.client.llen(QUEUE) == 0


def test_a_swept_task_rejected_with_requeue_goes_back_to_its_queue(channel):
    _publish(channel, SWEPT, {"n": 3})
    message = _take(channel)
    message.reject(requeue=True)
    again = _take(channel)
    assert again.payload == {"n": 3} and again.delivery_info.get("redelivered") is True
    again.ack()
    assert channel.client.llen(QUEUE) == 0


def test_a_swept_task_rejected_without_requeue_is_gone(channel):
    _publish(channel, SWEPT, {"n": 4})
    _take(channel).reject(requeue=False)
    assert channel.basic_get(QUEUE, no_ack=False) is None


def test_unacknowledged_tasks_go_back_at_a_warm_shutdown(channel):
    _publish(channel, SWEPT, {"n": 5})
    _publish(channel, "decklab.tasks.play_chunk", {"n": 6})
    done = _take(channel)
    _publish(channel, SWEPT, {"n": 7})
    held = [_take(channel), _take(channel)]
    done.ack()
    channel.qos.restore_unacked()
    back = sorted(_take(channel).payload["n"] for _ in held)
    assert back == [6, 7]  # not 5, which was acknowledged
    assert channel.basic_get(QUEUE, no_ack=False) is None


def test_the_settings_name_exactly_the_tasks_the_clock_sweep_queues_again():
    """matches/clocks_sweep.py queues default_move, drain_match and bot_move; a task named
    here that the sweep does not bring back would be lost with a dead worker. The one
    other, drain_move, carries a socket's move that nothing stored yet: the socket's web
    process stores it when no worker answers (tests/matches/test_socket_worker.py)."""
    swept = set(settings.CELERY_BROKER_TRANSPORT_OPTIONS["swept_tasks"])
    assert swept == {tasks.drain_match.name, tasks.bot_move.name, tasks.default_move.name,
                     tasks.drain_move.name}  # fmt: skip

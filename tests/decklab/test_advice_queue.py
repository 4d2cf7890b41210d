"""Advice's chunks wait behind the lab's (issue 39): with the Redis broker they are published
at the lowest priority, a list of their own that a worker asks for after the default one,
so a lab run's chunks and every game's moves are taken first however many advice chunks
wait (the measurement: bench/advice_bench.py --with-lab)."""

import pytest
import redis
from kombu.transport.redis import PRIORITY_STEPS

from decklab import advice_queue, services

from .conftest import WORKER_REDIS, _forget_connections


@pytest.fixture
def redis_broker(settings):
    from service_kit import redis_db

    from cardgame.celery import app

    redis_db(WORKER_REDIS)
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager", "result_backend")}
    app.conf.update(broker_url=WORKER_REDIS, task_always_eager=False, result_backend=None)
    _forget_connections(app)
    yield redis.Redis.from_url(WORKER_REDIS)
    app.conf.update(saved)
    _forget_connections(app)


def test_advice_chunks_go_to_the_lowest_priority_list_and_lab_chunks_to_the_first(redis_broker):
    advice_queue.send("play_advice_chunk", [101, 102])
    services._queue_chunks([201])
    lowest = "celery\x06\x16" + str(advice_queue.ADVICE_PRIORITY)
    assert redis_broker.llen(lowest) == 2
    assert redis_broker.llen("celery") == 1
    # a worker's BRPOP names the lists in kombu's priority order: "celery" is asked first
    assert PRIORITY_STEPS[0] == 0 and PRIORITY_STEPS[-1] == advice_queue.ADVICE_PRIORITY

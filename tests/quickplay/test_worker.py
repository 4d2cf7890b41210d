"""The queues' sweep on a real Celery worker (PostgreSQL + Redis): the task the beat sends
every 5 s expires a crashed browser's entry and gives a waiting person the bot they chose."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from quickplay.models import QueueEntry
from quickplay.tasks import sweep_queues

from .conftest import join

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def settled(entry_ids, timeout=30.0) -> list[QueueEntry]:
    """The entries once none waits any more (the worker swept them), or as they are then."""
    deadline = time.monotonic() + timeout
    while True:
        entries = list(QueueEntry.objects.filter(pk__in=entry_ids).order_by("pk"))
        if all(not e.waiting for e in entries) or time.monotonic() > deadline:
            return entries
        time.sleep(0.2)


def test_the_worker_sweep_expires_ghosts_and_hands_out_the_bot(celery_worker_process, person):
    ann, ben = person("ann"), person("ben", number=1750)
    ghost = join(ann)
    chose_bot = join(ben, ruleset="free", bot_after_wait=True)  # another queue: no partner
    long_ago = timezone.now() - timedelta(seconds=120)
    QueueEntry.objects.filter(pk=ghost.pk).update(seen=long_ago)
    QueueEntry.objects.filter(pk=chose_bot.pk).update(joined=long_ago)
    sweep_queues.delay()
    expired, bot = settled([ghost.pk, chose_bot.pk])
    assert expired.status == QueueEntry.EXPIRED and expired.match_id is None
    assert bot.status == QueueEntry.BOT
    seats = list(bot.match.seats.order_by("seat"))
    assert seats[0].user_id == ben.pk and seats[1].bot == "search-hard"  # a destroyer

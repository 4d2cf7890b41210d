"""Queuing the notifications' tasks (cardgame/task_queue.py, shared with matches): in the
embedded default (eager Celery) a delivery that meets a busy database is logged and dropped,
never an error for the request whose notification is committed already; its channels stay
pending and the bell has it."""

import logging
from unittest import mock

import pytest
from django.db import OperationalError

from notifications import services, tasks
from notifications.kinds import CHALLENGE, EMAIL, SITE
from notifications.models import Notification

pytestmark = pytest.mark.django_db


def test_a_delivery_that_meets_a_busy_database_does_not_fail_the_request(
    anna, carl, django_capture_on_commit_callbacks, caplog
):
    services.save_settings(anna, channels={CHALLENGE: [SITE, EMAIL]}, webhook_url="", language="hu")
    busy = mock.Mock()
    busy.objects.select_related.side_effect = OperationalError("database is locked")
    with mock.patch.object(tasks, "Notification", busy), caplog.at_level(logging.WARNING):
        with django_capture_on_commit_callbacks(execute=True):
            made = services.notify(anna, CHALLENGE, actor=carl, url="/hu/play/", challenger="carl")
    assert busy.objects.select_related.called  # the task ran, and met the busy database
    assert Notification.objects.get(pk=made.pk).pending == [EMAIL]
    assert "notifications.tasks.deliver" in caplog.text and "busy database" in caplog.text


def test_a_task_queued_by_a_running_task_runs_after_it(settings):
    """The eager loop is matches' own: a task queued from inside a task waits its turn."""
    from cardgame import task_queue

    ran = []

    class Task:
        def __init__(self, name, then=None):
            self.name, self.then = name, then
            self.app = mock.Mock(conf=mock.Mock(task_always_eager=True))

        def apply(self, args, throw):
            ran.append(f"{self.name} starts")
            if self.then:
                task_queue.enqueue(self.then)
            ran.append(f"{self.name} ends")

    task_queue.enqueue(Task("first", then=Task("second")))
    assert ran == ["first starts", "first ends", "second starts", "second ends"]

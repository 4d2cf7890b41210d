"""Production's path (issue 37): PostgreSQL, Redis and a real Celery worker process. The
request (here the test) stores the notification and returns; the worker sends the e-mail
to the local SMTP server and posts the webhook to the local HTTP server, and the bell's
push goes through Redis's channel layer to the person's socket."""

import asyncio
import os

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from notifications import services
from notifications.kinds import CHALLENGE, EMAIL, SITE, WEBHOOK
from notifications.models import Notification

pytestmark = [pytest.mark.postgres]

TEST_REDIS_URL = os.environ.get("KGK_TEST_REDIS_URL", "redis://127.0.0.1:6379/4")


@pytest.fixture
def notify_worker(transactional_db, settings, tmp_path):
    """A real worker on the TEST database and Redis DB 4 (the notifications' own), with the
    test process's Celery and channel layer on the same Redis (as tests/matches/conftest.py's
    celery_worker_process, with the SMTP and webhook servers' settings)."""
    from service_kit import redis_db, workers_on

    env = {
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(settings.EMAIL_PORT),
        "EMAIL_USE_TLS": "0",
        "NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE": "1",
        "CELERY_TASK_LOG_LEVEL": "INFO",
    }
    with workers_on(settings, redis_db(TEST_REDIS_URL), tmp_path, "notify", env) as pool:
        yield pool.start()


async def bell_then_notify(client, ben, carl):
    from channels.layers import channel_layers
    from channels.testing import WebsocketCommunicator
    from django.conf import settings

    from cardgame.asgi import application

    channel_layers.backends.clear()  # the Redis layer the fixture configured
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    headers = [
        (b"origin", b"http://testserver"),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
    ]
    socket = WebsocketCommunicator(application, "/ws/me/", headers=headers)
    try:
        connected, _ = await socket.connect(timeout=10)
        assert connected
        await socket.receive_json_from(timeout=10)
        await sync_to_async(services.notify)(ben, CHALLENGE, actor=carl, challenger="carl")
        return await socket.receive_json_from(timeout=10)
    finally:
        await socket.disconnect()
        await sync_to_async(connections.close_all)()
        channel_layers.backends.clear()


def test_a_worker_delivers_email_and_webhook_and_redis_carries_the_push(
    smtp, hooks, hook_url, ben, carl, notify_worker, client
):
    client.force_login(ben)  # a login remembers the language: the settings come after
    services.save_settings(
        ben, channels={CHALLENGE: [SITE, EMAIL, WEBHOOK]}, webhook_url=hook_url, language="en"
    )
    pushed = asyncio.run(bell_then_notify(client, ben, carl))
    assert pushed["item"]["text"] == "carl challenged you to a game."

    ((to, message),) = smtp.wait_for(1, timeout=30)
    assert to == ["ben@example.org"] and message["Subject"] == "KGK: A new challenge"
    ((_path, body),) = hooks.wait_for(1, timeout=30)
    assert "carl challenged you to a game." in body["content"]
    assert "notifications.tasks.deliver" in notify_worker.log_path.read_text()
    note = Notification.objects.get(user=ben)
    for _ in range(50):  # the worker takes each channel off `pending` as it goes
        if not note.pending:
            break
        asyncio.run(asyncio.sleep(0.1))
        note.refresh_from_db()
    assert note.pending == []

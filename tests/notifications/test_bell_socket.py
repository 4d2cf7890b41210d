"""The bell's live side (issue 37): the personal socket /ws/me/ on the real ASGI
application, logged in by a real session cookie, receives the push of a new notification
with its sentence in the person's language; an anonymous socket is closed."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections
from django.test import Client

from notifications import services
from notifications.consumers import NOT_LOGGED_IN
from notifications.kinds import CHALLENGE

pytestmark = pytest.mark.django_db(transaction=True)


def headers_of(client=None):
    headers = [(b"origin", b"http://testserver")]
    if client is not None:
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    return headers


async def open_bell(client=None):
    from cardgame.asgi import application

    socket = WebsocketCommunicator(application, "/ws/me/", headers=headers_of(client))
    connected, code = await socket.connect(timeout=10)
    return socket, connected, code


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_bell_gets_the_push_in_the_persons_language(anna, carl):
    asyncio.run(push_in_language(logged_in(anna), anna, carl))


async def push_in_language(client, anna, carl):
    socket, connected, _code = await open_bell(client)
    try:
        assert connected
        assert await socket.receive_json_from(timeout=10) == {"type": "unread", "unread": 0}
        await sync_to_async(services.notify)(
            anna, CHALLENGE, actor=carl, url="/hu/play/", challenger="carl"
        )
        pushed = await socket.receive_json_from(timeout=10)
        assert pushed["type"] == "notification" and pushed["unread"] == 1
        assert pushed["item"]["text"] == "carl kihívott egy játszmára."
        assert pushed["item"]["title"] == "Új kihívás"

        await sync_to_async(services.mark_read)(anna)  # another tab read it
        assert await socket.receive_json_from(timeout=10) == {"type": "unread", "unread": 0}
    finally:
        await socket.disconnect()
        await sync_to_async(connections.close_all)()


def test_an_anonymous_socket_is_accepted_then_closed_with_the_code_the_page_reads():
    """Closed before accept(), a socket is refused with an HTTP 403 that the browser sees as
    close code 1006, and the bell's script reconnected forever; accepted first, the browser
    gets NOT_LOGGED_IN, on which the script stops (static/js/notifications/bell.js)."""

    async def attempt():
        socket, connected, _code = await open_bell()
        closed = await socket.receive_output(timeout=10)
        await sync_to_async(connections.close_all)()
        return connected, closed

    connected, closed = asyncio.run(attempt())
    assert connected
    assert closed == {"type": "websocket.close", "code": NOT_LOGGED_IN}


def test_the_bells_script_does_not_reconnect_on_the_logged_out_code():
    script = (settings.BASE_DIR / "static/js/notifications/bell.js").read_text()
    assert f"if (event.code === {NOT_LOGGED_IN}) return;" in script


def test_nobody_elses_notification_reaches_the_socket(anna, ben, carl):
    asyncio.run(nobody_elses(logged_in(anna), ben, carl))


async def nobody_elses(client, ben, carl):
    socket, connected, _code = await open_bell(client)
    try:
        assert connected
        await socket.receive_json_from(timeout=10)
        await sync_to_async(services.notify)(ben, CHALLENGE, actor=carl, challenger="carl")
        assert await socket.receive_nothing(timeout=0.3)
    finally:
        await socket.disconnect()
        await sync_to_async(connections.close_all)()

"""WebSocket helpers: a Channels communicator on the real ASGI application, logged in by
the session cookie a real login would give."""

from channels.testing import WebsocketCommunicator
from django.conf import settings


def session_headers(client=None):
    headers = [(b"origin", b"http://testserver")]
    if client is not None and settings.SESSION_COOKIE_NAME in client.cookies:
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    return headers


async def open_socket(match_id, client=None, path=None):
    from cardgame.asgi import application

    communicator = WebsocketCommunicator(
        application, path or f"/ws/matches/{match_id}/", headers=session_headers(client)
    )
    connected, code = await communicator.connect(timeout=10)
    return communicator, connected, code


async def drain_messages(communicator, timeout=0.5):
    """Every message that arrives until `timeout` seconds pass without one."""
    out = []
    # receive_nothing peeks without cancelling the application (a timed-out receive would)
    while not await communicator.receive_nothing(timeout=timeout):
        out.append(await communicator.receive_json_from(timeout=timeout))
    return out


async def messages_up_to(communicator, version, have=-1, timeout=10.0):
    """Every message that arrives until one at `version` or later has come (`have`: the
    newest version the socket gave before), and those queued behind it: no fixed wait once
    the position is there, where a drain with a timeout waits that long for nothing. An
    AssertionError when that version never comes within `timeout`."""
    out = []
    while max([have] + [message["version"] for message in out]) < version:
        try:
            out.append(await communicator.receive_json_from(timeout=timeout))
        except TimeoutError:
            seen = [message["version"] for message in out]
            detail = f"no update at version {version} within {timeout} s: {seen}"
            raise AssertionError(detail) from None
    while not communicator.output_queue.empty():
        out.append(await communicator.receive_json_from())
    return out


async def close_thread_connections():
    """Close the database connection of the thread that sync_to_async code ran in (it
    outlives the test otherwise, and PostgreSQL then refuses to drop the test database)."""
    from asgiref.sync import sync_to_async
    from django.db import connections

    await sync_to_async(connections.close_all)()

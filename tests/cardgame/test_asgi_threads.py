"""cardgame.asgi_threads: ASGI requests reuse idle request threads instead of starting a new
thread each, and requests that run at the same time never share one."""

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator

from cardgame.asgi_threads import ReusedThreadsASGIHandler


def http_scope(path="/healthz"):
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
            "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
            "root_path": "", "headers": [(b"host", b"testserver")],
            "client": ("127.0.0.1", 1), "server": ("testserver", 80)}  # fmt: skip


async def finish(communicator):
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(timeout=10)
    body = await communicator.receive_output(timeout=10)
    await communicator.wait(timeout=10)
    return start["status"], body


@pytest.mark.django_db(transaction=True)
def test_requests_one_after_another_use_the_same_thread():
    handler = ReusedThreadsASGIHandler()

    async def three():
        return [await finish(ApplicationCommunicator(handler, http_scope())) for _ in range(3)]

    results = async_to_sync(three)()
    handler.close()
    assert [status for status, _body in results] == [200, 200, 200]
    assert handler.threads_started == 1


@pytest.mark.django_db(transaction=True)
def test_requests_at_the_same_time_get_threads_of_their_own():
    handler = ReusedThreadsASGIHandler()

    async def overlapping():
        waiting = ApplicationCommunicator(handler, http_scope())  # holds its thread: no body yet
        waiting.future  # noqa: B018 (started by the property)
        await waiting.receive_nothing(timeout=0.1)
        other = await finish(ApplicationCommunicator(handler, http_scope()))
        first = await finish(waiting)
        return first, other

    first, other = async_to_sync(overlapping)()
    handler.close()
    assert first[0] == other[0] == 200
    assert handler.threads_started == 2

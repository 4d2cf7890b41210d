"""cardgame.asgi_threads: under ASGI a request crosses between the event loop and its thread
a fixed, small number of times (once for an answer in memory), not twice per middleware
(issue 40)."""

import pytest
from asgiref import sync
from asgiref.testing import ApplicationCommunicator
from django.core.handlers.asgi import ASGIHandler

from cardgame.asgi_threads import ReusedThreadsASGIHandler
from cards_data.loader import load_cards

from .test_asgi_threads import finish, http_scope


@pytest.fixture
def switches(monkeypatch):
    """Every switch between the loop and a thread: ("to thread" | "to loop", what ran),
    but the test's own call into the loop (`finish`)."""
    calls = []

    def counting(direction, original):
        def call(self, *args, **kwargs):
            func = getattr(self, "func", None) or self.awaitable
            what = getattr(func, "__qualname__", repr(func))
            if what != "finish":
                calls.append((direction, what))
            return original(self, *args, **kwargs)

        return call

    for cls, direction in ((sync.SyncToAsync, "to thread"), (sync.AsyncToSync, "to loop")):
        monkeypatch.setattr(cls, "__call__", counting(direction, cls.__call__))
    return calls


def search(handler, query=b"q=t%3Aship+r%3Azarg"):
    scope = {**http_scope("/api/cards/"), "query_string": query}
    status, body = sync.async_to_sync(finish)(ApplicationCommunicator(handler, scope))
    return status, body["body"]


@pytest.fixture
def cards(db):
    load_cards()


@pytest.mark.django_db(transaction=True)
def test_a_search_request_crosses_to_its_thread_once(cards, switches):
    handler = ReusedThreadsASGIHandler()
    search(handler)  # the first request imports and builds what later ones reuse
    switches.clear()
    status, _body = search(handler)
    handler.close()
    assert status == 200
    # The request_started signal, the middleware chain with the view and the response's
    # close, in one hand-off; nothing comes back to the loop from inside the thread.
    assert switches == [("to thread", "ReusedThreadsASGIHandler._respond")], switches


@pytest.mark.django_db(transaction=True)
def test_the_signals_run_in_the_request_thread_around_the_view(cards, monkeypatch):
    """request_started before the view and request_finished after it, both in the thread
    that ran the view (a connection closed by request_finished is that thread's own)."""
    import threading

    from django.core import signals

    seen = []

    def started(**_kwargs):
        seen.append(("started", threading.get_ident()))

    def finished(**_kwargs):
        seen.append(("finished", threading.get_ident()))

    handler = ReusedThreadsASGIHandler()
    view = handler.get_response

    def get_response(request):
        seen.append(("view", threading.get_ident()))
        return view(request)

    monkeypatch.setattr(handler, "get_response", get_response)
    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    try:
        status, _body = search(handler)
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
        handler.close()
    assert status == 200
    assert [what for what, _thread in seen] == ["started", "view", "finished"]
    assert len({thread for _what, thread in seen}) == 1


@pytest.mark.django_db(transaction=True)
def test_a_streamed_answer_is_closed_after_it_is_sent(cards, monkeypatch, switches):
    """A streamed answer's iterator is read by the send, so its close (request_finished)
    waits until then: a second hand-off, as in Django's handler."""
    from django.http import StreamingHttpResponse

    handler = ReusedThreadsASGIHandler()
    read = []

    def chunks():
        for part in (b"one ", b"two"):
            read.append(part)
            yield part

    def get_response(request):
        response = StreamingHttpResponse(chunks())
        response._resource_closers.append(lambda: read.append("closed"))
        return response

    monkeypatch.setattr(handler, "get_response", get_response)
    scope = http_scope("/anything/")

    async def stream(communicator):
        await communicator.send_input({"type": "http.request", "body": b""})
        start = await communicator.receive_output(timeout=10)
        parts = []
        while True:
            message = await communicator.receive_output(timeout=10)
            parts.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        await communicator.wait(timeout=10)
        return start["status"], b"".join(parts)

    status, body = sync.async_to_sync(stream)(ApplicationCommunicator(handler, scope))
    handler.close()
    assert (status, body) == (200, b"one two")
    assert read == [b"one ", b"two", "closed"]
    handoffs = [what for direction, what in switches if direction == "to thread"]
    # the view's hand-off first, the close last (between them Django's send_response reads
    # the synchronous iterator in a thread of its own, as it does in Django's handler)
    assert handoffs[0] == "ReusedThreadsASGIHandler._respond", switches
    assert handoffs[-1] == "HttpResponseBase.close", switches


@pytest.mark.django_db(transaction=True)
def test_the_same_answer_as_djangos_handler_with_far_fewer_switches(cards, switches):
    ours, django = ReusedThreadsASGIHandler(), ASGIHandler()
    search(ours), search(django)
    switches.clear()
    our_answer = search(ours)
    ours_count = len(switches)
    switches.clear()
    django_answer = search(django)
    ours.close()
    assert our_answer == django_answer
    assert our_answer[0] == 200
    # Django's handler hands every middleware's process_request / process_response over.
    assert len(switches) >= ours_count + 8, switches

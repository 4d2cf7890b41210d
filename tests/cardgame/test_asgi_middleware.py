"""cardgame.asgi_threads: under ASGI a request crosses between the event loop and its thread
a fixed, small number of times (three), not twice per middleware (issue 40)."""

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
def test_a_search_request_crosses_to_its_thread_three_times(cards, switches):
    handler = ReusedThreadsASGIHandler()
    search(handler)  # the first request imports and builds what later ones reuse
    switches.clear()
    status, _body = search(handler)
    handler.close()
    assert status == 200
    # The request_started signal, the middleware chain with the view, the response's close:
    # each once, and nothing comes back to the loop from inside the thread.
    assert [direction for direction, _what in switches] == ["to thread"] * 3, switches
    assert "BaseHandler.get_response" in [what for _direction, what in switches]


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

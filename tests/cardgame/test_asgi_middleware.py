"""cardgame.middleware.SyncMiddlewareChain: under ASGI a request crosses between the event
loop and its thread a fixed, small number of times, not twice per middleware."""

import pytest
from asgiref import sync
from django.test import AsyncClient


@pytest.fixture
def hand_offs(monkeypatch):
    """Count loop -> thread hand-offs (asgiref SyncToAsync calls) during a request."""
    calls = []
    original = sync.SyncToAsync.__call__

    async def counting(self, *args, **kwargs):
        calls.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(sync.SyncToAsync, "__call__", counting)
    return calls


def request_hand_offs(hand_offs, settings, middleware):
    settings.MIDDLEWARE = middleware
    response = sync.async_to_sync(AsyncClient().get)("/healthz")
    assert response.status_code == 200
    return list(hand_offs)


@pytest.mark.django_db
def test_the_whole_chain_runs_in_one_thread(hand_offs, settings):
    with_chain = request_hand_offs(hand_offs, settings, settings.MIDDLEWARE)
    assert settings.MIDDLEWARE[-1] == "cardgame.middleware.SyncMiddlewareChain"
    hand_offs.clear()
    without = request_hand_offs(hand_offs, settings, settings.MIDDLEWARE[:-1])
    # With it: the request_started signal, the chain, CSRF process_view, the view and the
    # response close, each once; without it every Django
    # middleware hands process_request / process_response to a thread on its own.
    assert len(with_chain) <= 5, with_chain
    assert len(without) >= len(with_chain) + 8, without

"""The lobby's quick-play socket (/ws/quickplay/) on the real ASGI application: the status on
connect, "matched" pushed to the person who waited, and a closed page leaving its queue."""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from quickplay import consumers
from quickplay.models import QueueEntry
from tests.matches.kit import logged_in
from tests.matches.socket_kit import close_thread_connections, open_socket

from .conftest import join

pytestmark = pytest.mark.django_db(transaction=True)


async def next_of_type(socket, kind, timeout=10):
    """The next message of `kind`, skipping the others (a count sent meanwhile)."""
    while True:
        message = await socket.receive_json_from(timeout=timeout)
        if message["type"] == kind:
            return message


def test_the_waiting_person_hears_matched_and_a_closed_page_leaves_the_queue(person, monkeypatch):
    monkeypatch.setattr(consumers, "MIN_PING_INTERVAL", 0)  # the test pings at once
    ann, ben, cid = (person(n) for n in ("ann", "ben", "cid"))
    asyncio.run(scenario(ann, ben, cid))


async def scenario(ann, ben, cid):
    try:
        socket, connected, _code = await open_socket(
            None, await sync_to_async(logged_in)(ann), path="/ws/quickplay/"
        )
        assert connected
        await socket.send_json_to({"type": "ping"})
        hello = await next_of_type(socket, "status")
        assert hello["entry"] is None and hello["counts"] == []
        entry = await sync_to_async(join)(ann)
        await socket.send_json_to({"type": "watch"})
        await socket.send_json_to({"type": "ping"})
        watched = await next_of_type(socket, "status")
        assert watched["entry"]["id"] == entry.pk and watched["entry"]["place"] == 1
        assert watched["counts"][0]["waiting"] == 1
        partner = await sync_to_async(join)(ben)
        matched = await next_of_type(socket, "matched")
        assert matched["match"] == partner.match_id
        await socket.disconnect()  # a matched entry stays matched when the page closes
        assert (await QueueEntry.objects.aget(pk=entry.pk)).status == QueueEntry.MATCHED

        waiting = await sync_to_async(join)(cid)
        other, connected, _code = await open_socket(
            None, await sync_to_async(logged_in)(cid), path="/ws/quickplay/"
        )
        await other.send_json_to({"type": "ping"})
        assert (await next_of_type(other, "status"))["entry"]["id"] == waiting.pk
        await other.disconnect()  # the page closed while waiting: out of the queue
        assert (await QueueEntry.objects.aget(pk=waiting.pk)).status == QueueEntry.LEFT
    finally:
        await close_thread_connections()


def test_pings_faster_than_the_page_sends_them_are_not_answered(person):
    """A ping costs queries: one a second at most per socket (the page sends one in 5 s)."""
    ann = person("ann")
    asyncio.run(ping_twice(ann))


async def ping_twice(ann):
    try:
        socket, connected, _code = await open_socket(
            None, await sync_to_async(logged_in)(ann), path="/ws/quickplay/"
        )
        assert connected
        await socket.send_json_to({"type": "ping"})
        await socket.send_json_to({"type": "ping"})
        assert (await socket.receive_json_from(timeout=10))["type"] == "status"
        assert await socket.receive_nothing(timeout=0.5)
        await socket.disconnect()
    finally:
        await close_thread_connections()


def test_the_socket_reads_the_session_under_the_sites_cookie_name(person, settings):
    """The cookie is the one settings.SESSION_COOKIE_NAME names, not always "sessionid": a
    socket that read "sessionid" took a logged-in person for a visitor."""
    settings.SESSION_COOKIE_NAME = "kgk_session"
    ann = person("ann")
    entry = join(ann)
    asyncio.run(ping_as(ann, entry))


async def ping_as(ann, entry):
    try:
        socket, connected, _code = await open_socket(
            None, await sync_to_async(logged_in)(ann), path="/ws/quickplay/"
        )
        assert connected
        await socket.send_json_to({"type": "ping"})
        assert (await next_of_type(socket, "status"))["entry"]["id"] == entry.pk
        await socket.disconnect()
    finally:
        await close_thread_connections()

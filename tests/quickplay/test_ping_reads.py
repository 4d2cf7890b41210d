"""A heartbeat's cost (the socket's ping, the status poll): the person's queue entry is read
once, by the matching's locked read, not again before it and after it; and the status
still shows the entry as the heartbeat left it (waiting, matched, or the one watched)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from quickplay import consumers

from .conftest import join
from .test_views import client_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def kept_connection(monkeypatch):
    """The socket's calls give their thread's connection back; here the thread is the
    test's, whose connection holds the test's transaction."""
    monkeypatch.setattr(consumers.connections, "close_all", lambda: None)


ENTRY_ROW = 'SELECT "quickplay_queueentry"."id", "quickplay_queueentry"."user_id"'


def entry_reads(queries, user) -> list[str]:
    """The full-row reads of `user`'s own entries (not the partners', not the counts)."""
    mine = (f'"quickplay_queueentry"."user_id" = {user.pk}', '"quickplay_queueentry"."id" = ')
    return [
        q["sql"]
        for q in queries
        if q["sql"].startswith(ENTRY_ROW)
        and "NOT (" not in q["sql"]
        and any(m in q["sql"] for m in mine)
    ]


def test_the_sockets_ping_reads_the_watched_entry_once(person):
    ann = person("ann")
    entry = join(ann)
    with CaptureQueriesContext(connection) as seen:
        status = consumers._ping(ann, entry.pk)
    assert len(entry_reads(seen.captured_queries, ann)) == 1, seen.captured_queries
    assert status["entry"]["id"] == entry.pk and status["entry"]["status"] == "waiting"
    assert status["entry"]["place"] == 1


def test_the_status_poll_reads_the_watched_entry_once(person):
    ann = person("ann")
    entry = join(ann)
    client = client_of(ann)
    client.get("/en/quickplay/status/")  # the session's first-request reads
    with CaptureQueriesContext(connection) as seen:
        answer = client.get(f"/en/quickplay/status/?entry={entry.pk}").json()
    assert len(entry_reads(seen.captured_queries, ann)) == 1, seen.captured_queries
    assert answer["entry"]["id"] == entry.pk and answer["entry"]["status"] == "waiting"


def test_a_ping_that_matches_shows_the_game_it_made(person, settings):
    """The heartbeat's matching made the game: the status shows it without reading anew."""
    ann, ben = person("ann", number=1000), person("ben", number=2000)
    settings.QUICKPLAY_POOL = 1  # the window counts from the first partner on
    settings.QUICKPLAY_WINDOW_BASE = 0  # 1000 apart: not matched when they join
    settings.QUICKPLAY_WINDOW_GROWTH = 0
    entry, other = join(ann), join(ben)
    assert entry.waiting and other.waiting
    settings.QUICKPLAY_WINDOW_BASE = 10_000
    status = consumers._ping(ann, entry.pk)
    assert status["entry"]["status"] == "matched" and status["entry"]["match"]


def test_a_ping_for_another_entry_than_the_waiting_one_shows_the_one_watched(person):
    """The page watches an entry that ended (the person joined again in another tab): the
    heartbeat keeps the waiting one alive, and the status is of the one watched."""
    from quickplay import services

    ann = person("ann")
    old = join(ann)
    services.leave(ann)
    new = join(ann)
    status = consumers._ping(ann, old.pk)
    assert status["entry"]["id"] == old.pk and status["entry"]["status"] == "left"
    assert consumers._ping(ann, None)["entry"]["id"] == new.pk

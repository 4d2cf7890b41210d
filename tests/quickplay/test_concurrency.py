"""Many people join the same queue at the same moment, each from a thread of their own with
its own database connection: every person is matched at most once, nobody with themselves,
every game has two different people (PostgreSQL's skip-locked rows; SQLite's one writer at
a time in the embedded default)."""

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections

from matches.models import Match, Seat
from quickplay import services
from quickplay.models import QueueEntry

from .conftest import join

pytestmark = pytest.mark.django_db(transaction=True)


def everyone_joins_at_once(people):
    start = threading.Barrier(len(people))

    def one(user):
        try:
            start.wait(timeout=30)
            return join(user).pk
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=len(people)) as pool:
        return list(pool.map(one, people))


def check_pairs(people):
    """Every person in exactly one game (after the sweep's second chance), none twice."""
    services.sweep()  # the joins that met only held rows try again, as a heartbeat would
    entries = list(QueueEntry.objects.all())
    assert len(entries) == len(people)  # one entry each: nobody joined twice
    matched = [e for e in entries if e.status == QueueEntry.MATCHED]
    assert len(matched) == len(people)  # an even crowd in one thin queue: all paired
    per_match = Counter(e.match_id for e in matched)
    assert set(per_match.values()) == {2}
    seats = list(Seat.objects.values_list("match_id", "user_id"))
    assert Counter(user for _m, user in seats) == {p.pk: 1 for p in people}  # at most once
    for match in Match.objects.prefetch_related("seats"):
        users = [s.user_id for s in match.seats.all()]
        assert len(set(users)) == 2, users  # never with themselves
        assert {e.user_id for e in matched if e.match_id == match.pk} == set(users)


@pytest.mark.postgres
def test_forty_joins_at_once_on_postgresql(person):
    if connection.vendor != "postgresql":
        from service_kit import service_missing

        service_missing("needs PostgreSQL: run with DATABASE_URL=postgres://...")
    people = [person(f"p{i:02d}", seed=i % 4) for i in range(40)]
    everyone_joins_at_once(people)
    check_pairs(people)


def test_concurrent_joins_in_the_embedded_default(person):
    """Whatever the database (SQLite here: writers wait for each other)."""
    people = [person(f"s{i:02d}", seed=i % 4) for i in range(10)]
    everyone_joins_at_once(people)
    check_pairs(people)

"""Fixtures of the matches tests; `celery_worker_process` is reusable by other apps' tests
(docs/matches-api.md says how)."""

import pytest

from .kit import make_deck


@pytest.fixture
def pg(transactional_db):
    """PostgreSQL, its connection holding none of the drain's prepared statements yet (so
    each test's first drain prepares them in its own texts) and knowing that it holds none
    (a connection new to this process asks once: not counted here)."""
    from django.db import connection

    from matches import fetch

    if connection.vendor != "postgresql":
        from service_kit import service_missing

        service_missing("needs PostgreSQL: run with DATABASE_URL=postgres://...")
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
        fetch._PREPARED.pop(connection.connection, None)
        fetch.execute_prepared(cursor, [])


@pytest.fixture
def players(catalogue, django_user_model):
    alice = django_user_model.objects.create_user("alice", password="pw-alice-123")
    bob = django_user_model.objects.create_user("bob", password="pw-bob-123")
    return alice, bob


@pytest.fixture
def decks(players):
    alice, bob = players
    return make_deck(alice, seed=1, name="Alice colony"), make_deck(bob, seed=2, name="Bob colony")


@pytest.fixture
def clients(players):
    """A logged-in test client for each player."""
    from django.test import Client

    out = []
    for user in players:
        c = Client()
        c.force_login(user)
        out.append(c)
    return out


@pytest.fixture
def alice_client(client, players):
    """The test client, logged in as alice."""
    client.force_login(players[0])
    return client


@pytest.fixture
def bob_client(players):
    """A second client, logged in as bob."""
    from django.test import Client

    other = Client()
    other.force_login(players[1])
    return other


@pytest.fixture
def human_match(players, decks):
    """Alice and Bob, two people, with their decks (seed 21)."""
    from matches import services

    colonies = [services.deck_colony(d, "original") for d in decks]
    return services.create_match(players=players, colonies=colonies, seed=21)


# --- a real Celery worker on Redis and the PostgreSQL test database ------------------------

import os  # noqa: E402

from service_kit import redis_db, workers_on  # noqa: E402

TEST_REDIS_URL = os.environ.get("KGK_TEST_REDIS_URL", "redis://127.0.0.1:6379/1")


@pytest.fixture
def redis_url():
    """Redis DB 1 (the matches tests' own), emptied; skip/fail (CI) when Redis is down."""
    return redis_db(TEST_REDIS_URL)


@pytest.fixture
def celery_worker_process(transactional_db, redis_url, settings, tmp_path):
    """A real worker process against the pytest-django TEST database and Redis DB 1.

    The test process's own Celery sends to the same broker (no eager mode) and its channel
    layer is Redis too, so what the worker pushes reaches the test's sockets. Use with
    `@pytest.mark.postgres`. Yields a WorkerPool with one worker started; `.start()` adds
    one, `.kill(process)` kills one by pid.
    """
    visibility = {"CELERY_VISIBILITY_TIMEOUT": "5"}  # a lost task comes back after 5 s
    with workers_on(
        settings, redis_url, tmp_path, "matches", visibility, {"visibility_timeout": 5}
    ) as pool:
        pool.start()
        yield pool

"""The pool's check of a lent connection (cardgame/pgpool): no round trip while the server
has said nothing, the full check once it has (issue 16; restarts: tests/matches/test_faults.py)."""

import psycopg
import pytest
from django.db import connection

from cardgame.pgpool.base import _nothing_arrived

pytestmark = pytest.mark.postgres


def _connect():
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    return psycopg.connect(**params, autocommit=True)


def test_an_idle_connection_is_lent_without_a_query_until_its_backend_ends(db):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's pool")
    lent, other = _connect(), _connect()
    try:
        pid = lent.execute("SELECT pg_backend_pid()").fetchone()[0]
        assert _nothing_arrived(lent)  # idle, nothing sent by the server: no query needed
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
        # the backend's FATAL message and the closed socket arrive: the full check runs
        for _ in range(200):
            if not _nothing_arrived(lent):
                break
            other.execute("SELECT pg_sleep(0.01)")
        assert not _nothing_arrived(lent)
        with pytest.raises(psycopg.OperationalError):
            lent.execute("")  # the full check's query: the connection is dead
    finally:
        lent.close()
        other.close()


def test_a_connection_inside_a_transaction_always_gets_the_full_check(db):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's pool")
    conn = _connect()
    try:
        conn.autocommit = False
        conn.execute("SELECT 1")  # the transaction is open
        assert not _nothing_arrived(conn)
    finally:
        conn.close()

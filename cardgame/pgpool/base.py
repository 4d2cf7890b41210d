"""Django's PostgreSQL backend whose connection pool, on a dead connection, checks them all.

With CONN_HEALTH_CHECKS the pool (psycopg_pool) checks each connection it lends (here
first by looking at its socket, `_nothing_arrived`, then by the empty query); when the
check fails it tries the next idle one after a back-off of 0, 1, 2, 4 ... seconds, as if
the server were down. After a PostgreSQL restart the server is up but every idle connection
is dead, so a web process holding five or more of them made its first request wait the
whole pool timeout (10 s) and answer 503 although the database was back, and with fewer it
still waited seconds (tests/matches/test_faults.py). Here the first failed check also runs
the pool's own check() over the idle connections: every dead one is discarded and replaced
at once, so the next try gets a new connection.
"""

import select

from django.db.backends.postgresql import base
from psycopg import pq
from psycopg_pool import ConnectionPool


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        pool = super().pool
        # psycopg_pool keeps the check callback in `_check` (3.2+); left alone if it moved
        if pool is not None and getattr(pool, "_check", None) is ConnectionPool.check_connection:
            pool._check = _checking_all_on_failure(pool)
        return pool


def _checking_all_on_failure(pool):
    def check(connection):
        if _nothing_arrived(connection):
            return
        try:
            ConnectionPool.check_connection(connection)
        except Exception:
            pool.check()  # the other idle connections died with this one: replace them now
            raise

    return check


def _nothing_arrived(connection) -> bool:
    """True for an idle connection whose socket has nothing to read: the server has said
    nothing since the connection went back to the pool, so it is as alive as the empty
    query would show, without that query's round trip (one per move on the web and one
    per drain on a worker: bench/RESULTS.md, issue 16). A server that shuts down, restarts
    or loses a backend closes the backend's socket (a clean shutdown sends a FATAL message
    first), which makes it readable; anything readable gets the full check, which reads it."""
    pgconn = connection.pgconn
    if pgconn.status != pq.ConnStatus.OK:
        return False
    if pgconn.transaction_status != pq.TransactionStatus.IDLE:
        return False
    try:
        poller = select.poll()
        poller.register(pgconn.socket, select.POLLIN | select.POLLERR | select.POLLHUP)
        return not poller.poll(0)
    except (OSError, ValueError):  # no socket: let the full check say what is wrong
        return False

"""Exit 0 when the named service answers: `service_check.py postgres URL` or `redis URL`.

`service_check.py create-database URL` creates the PostgreSQL database a URL names when it
does not exist yet (`make db` runs it, so the README's steps need no `createdb`); any other
URL (none, SQLite) is left alone.
"""

import sys
from urllib.parse import urlsplit


def postgres(url: str) -> None:
    import psycopg

    with psycopg.connect(_admin_url(url), connect_timeout=3) as conn:
        conn.execute("SELECT 1")


def redis(url: str) -> None:
    import redis as redis_lib

    redis_lib.Redis.from_url(url, socket_connect_timeout=3).ping()


def create_database(url: str) -> None:
    if urlsplit(url).scheme not in ("postgres", "postgresql", "pgsql"):
        return
    import psycopg
    from psycopg import sql

    name = urlsplit(url).path.lstrip("/")
    # CREATE DATABASE cannot run inside a transaction: autocommit.
    with psycopg.connect(_admin_url(url), connect_timeout=3, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            print(f"created PostgreSQL database {name}")


def _admin_url(url: str) -> str:
    """The same server's `postgres` database: it exists before ours does."""
    return url.rsplit("/", 1)[0] + "/postgres"


CHECKS = {"postgres": postgres, "redis": redis}

if __name__ == "__main__":
    kind, url = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
    if kind == "create-database":
        create_database(url)  # a failure here is an error with its traceback, not a skip
        sys.exit(0)
    try:
        CHECKS[kind](url)
    except Exception as exc:  # any failure means "not available here"
        print(f"{kind} not reachable at {url}: {exc}", file=sys.stderr)
        sys.exit(1)

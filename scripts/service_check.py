"""Exit 0 when the named service answers: `service_check.py postgres URL` or `redis URL`."""

import sys


def postgres(url: str) -> None:
    import psycopg

    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, connect_timeout=3) as conn:
        conn.execute("SELECT 1")


def redis(url: str) -> None:
    import redis as redis_lib

    redis_lib.Redis.from_url(url, socket_connect_timeout=3).ping()


if __name__ == "__main__":
    kind, url = sys.argv[1], sys.argv[2]
    try:
        {"postgres": postgres, "redis": redis}[kind](url)
    except Exception as exc:  # any failure means "not available here"
        print(f"{kind} not reachable at {url}: {exc}", file=sys.stderr)
        sys.exit(1)

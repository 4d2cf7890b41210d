"""What Celery itself costs a worker per task on this machine (issue 16, bench/RESULTS.md
fifteenth round): one solo-pool worker, as the match benchmark starts them, fed the
trivial `cardgame.celery.floor_ping` (two Redis calls of its own) every --interval
seconds; its process CPU per task, per round, and its CPU per second when idle. The part
of a drain's CPU that no change to the drain can remove.

    .venv/bin/python bench/celery_task_cost.py [--tasks 1500] [--interval 0.02] [--rounds 3]
        [--redis redis://127.0.0.1:6379/7]

Uses its own Redis DB (flushed). PostgreSQL is not used by the task (DATABASE_URL only
configures the worker as the benchmarks do).
"""

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=1500)
    parser.add_argument("--interval", type=float, default=0.02)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/7")
    args = parser.parse_args()
    os.environ.update(REDIS_URL=args.redis, DJANGO_SETTINGS_MODULE="cardgame.settings",
                      DATABASE_URL=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
                      DATABASE_POOL="1", LOG_LEVEL="ERROR")  # fmt: skip
    sys.path.insert(0, str(ROOT))
    import redis

    client = redis.Redis.from_url(args.redis)
    client.flushdb()
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "cardgame", "worker", "--pool=solo",
         "--loglevel=WARNING"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        import django

        django.setup()
        from cardgame.celery import floor_ping

        floor_ping.delay("ready")
        client.blpop("ready", timeout=60)  # the worker is up and has run one task
        idle = cpu_seconds(worker.pid)
        time.sleep(10)
        idle = (cpu_seconds(worker.pid) - idle) / 10
        per_task = []
        for _round in range(args.rounds):
            before = cpu_seconds(worker.pid)
            for _ in range(args.tasks):
                floor_ping.delay("pong")
                time.sleep(args.interval)
            while client.llen("pong") < args.tasks:
                time.sleep(0.05)
            client.delete("pong")
            per_task.append((cpu_seconds(worker.pid) - before) / args.tasks * 1000)
        print("worker CPU per trivial task, ms, per round: "
              + ", ".join(f"{x:.2f}" for x in per_task)
              + f"; median {statistics.median(per_task):.2f} ms")  # fmt: skip
        print(f"idle worker: {idle * 1000:.1f} ms of CPU per second")
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=30)


if __name__ == "__main__":
    main()

"""Where a Celery worker's CPU goes, per drain: thread CPU (`time.thread_time()`) spent
inside the drain's parts and kombu's bookkeeping, inclusive (a part's figure includes the
parts it calls).

Loaded into each worker of `bench/matches_bench.py --probe` with Celery's `--include`; each
worker writes `bench/out/probe-<pid>.json` when it stops, and the bench prints the table
(`report`). Wrappers are installed once the worker is ready, so start-up is not counted;
they cost ~1 us a call, which the figures include.
"""

import atexit
import collections
import functools
import json
import os
import time
from pathlib import Path

from celery.signals import task_postrun, task_prerun, worker_ready, worker_shutdown

OUT = Path(__file__).resolve().parent / "out"
_totals = collections.defaultdict(lambda: [0, 0.0])  # label -> [calls, CPU seconds]
_task_starts = {}
_cpu_at_ready = [0.0]


def _wrap(owner, name, label):
    original = getattr(owner, name)

    @functools.wraps(original)
    def timed(*args, **kwargs):
        start = time.thread_time()
        try:
            return original(*args, **kwargs)
        finally:
            entry = _totals[label]
            entry[0] += 1
            entry[1] += time.thread_time() - start

    setattr(owner, name, timed)


def _task_started(task_id=None, **_kwargs):
    _task_starts[task_id] = time.thread_time()


def _task_ended(task_id=None, task=None, **_kwargs):
    start = _task_starts.pop(task_id, None)
    if start is not None:
        entry = _totals["task " + task.name.rsplit(".", 1)[-1]]
        entry[0] += 1
        entry[1] += time.thread_time() - start


_gc_started = [0.0]


def _collector(phase, info):
    """The cyclic collector's own time, by generation (it runs inside whatever allocated)."""
    if phase == "start":
        _gc_started[0] = time.thread_time()
        return
    entry = _totals[f"gc: generation {info['generation']} collections"]
    entry[0] += 1
    entry[1] += time.thread_time() - _gc_started[0]


@worker_ready.connect
def _install(**_kwargs):
    import gc

    from django.db.backends.base.base import BaseDatabaseWrapper

    from cardgame import broker
    from matches import holders, push, state_cache
    from matches.services import commit, draining, sql

    for module, name in ((draining, "drain"), (sql, "locked_seats_and_pending"),
                         (draining, "_rebuilt"), (commit, "apply_request"),
                         (commit, "save_position")):  # fmt: skip
        _wrap(module, name, f"drain > {name.lstrip('_')}")
    _wrap(sql.WriteBatch, "run", "drain > WriteBatch.run")
    _wrap(BaseDatabaseWrapper, "run_and_clear_commit_hooks", "drain > after commit")
    _wrap(push, "push_update", "drain > after commit > push_update")
    _wrap(push, "update_message", "drain > after commit > push_update > update_message")
    _wrap(push, "encode", "drain > after commit > push_update > encode")
    _wrap(push, "_send_scripted", "drain > after commit > push_update > _send_scripted")
    _wrap(state_cache, "take_entry", "drain > state_cache.take_entry")
    _wrap(broker.QoS, "append", "kombu: delivery recorded (in Redis for unswept tasks)")
    _wrap(broker.QoS, "ack", "kombu: ack")
    # a move from the worker's own queue: no Celery task around it (matches/holders.py)
    _wrap(holders, "drain_held_move", "task drain_held_move")
    gc.callbacks.append(_collector)
    # hooked here, in the worker, not at import: the bench imports this module too (for
    # `report`), and its own process must record and write nothing
    task_prerun.connect(_task_started, weak=False)
    task_postrun.connect(_task_ended, weak=False)
    worker_shutdown.connect(_write, weak=False)
    atexit.register(_write)
    times = os.times()
    _cpu_at_ready[0] = times.user + times.system


def _write(**_kwargs):
    times = os.times()
    data = {"process_cpu": times.user + times.system - _cpu_at_ready[0],
            "parts": dict(_totals)}  # fmt: skip
    OUT.mkdir(exist_ok=True)
    (OUT / f"probe-{os.getpid()}.json").write_text(json.dumps(data, indent=1))


def clear():
    for path in OUT.glob("probe-*.json"):
        path.unlink()


def report() -> str:
    """Per drain, summed over every worker's file: the process's CPU and each part's."""
    process, parts = 0.0, collections.defaultdict(lambda: [0, 0.0])
    for path in sorted(OUT.glob("probe-*.json")):
        data = json.loads(path.read_text())
        process += data["process_cpu"]
        for label, (calls, seconds) in data["parts"].items():
            parts[label][0] += calls
            parts[label][1] += seconds
    # a drain comes from drain_match (a stored request), drain_move (a socket's move) or
    # the worker's own queue (a socket's move sent to the worker holding its position)
    names = ("drain_match", "drain_move", "drain_held_move")
    drains = sum(parts.get(f"task {name}", [0, 0.0])[0] for name in names)
    if not drains:
        return "probe: no drain recorded"
    lines = [
        f"worker CPU per drain (probe, {drains} drains): process {process / drains * 1000:.3f} ms"
    ]
    for label, (calls, seconds) in sorted(parts.items(), key=lambda item: -item[1][1]):
        lines.append(f"  {seconds / drains * 1000:6.3f} ms  {label}  ({calls} calls)")
    return "\n".join(lines)

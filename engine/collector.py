"""Python's cyclic garbage collector paused while a game is played out (issue 18).

A game allocates some hundred thousand short-lived objects (Actions, events, lists, the
frames' dicts); reference counting frees every one of them, but each 700 allocations the
collector still walks the young ones, and now and then all that the process holds: ~10 % of
the compiled engine's CPU in a random game (bench/RESULTS.md, issue 18, fifth round). The
engine makes no reference cycles (a game, played with the collector off, leaves nothing for
``gc.collect()``: tests/engine/test_collector.py), so pausing it loses no memory. Stdlib
``gc`` only; the tournaments' standings and pairings use it too (tournaments/services.py).
"""

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off inside the block and on again after it, even on an error; a
    caller's own pause (the collector already off) is left alone: theirs to end."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()

"""The engine states a process committed last, by match: the next drain of the same match in
the same worker takes its position from here instead of reading and parsing the ~22 kB dump.

An entry is the state of one committed position, keyed by the match row's `version` and
`updated` as that commit wrote them: the drain asks the database for the dump only when the
locked row does not have both (another process moved the game on, a judge or a clock wrote
the row, or the database is not the one the entry came from). Entries go in after the
commit (never a position that may yet roll back) and come out when a drain takes them (it
changes the state in place), so a failed drain leaves nothing behind. A reader gets a copy
(`copy`) and leaves the entry where it is.
"""

import os
import threading
from collections import OrderedDict
from typing import NamedTuple

from engine.serialize import clone

SIZE = int(os.environ.get("KGK_STATE_CACHE_SIZE", "512"))  # matches; ~60 kB each (tracemalloc)

_states: OrderedDict = OrderedDict()
# match id -> (version, updated, (match, seats)): the rows a drain committed with the held
# position of that version, as that commit left them (`hold_rows`): a socket's move on that
# position is then drained in one round trip (matches/services/draining.py, `_drain_held_move`).
_rows: dict = {}
_lock = threading.Lock()


class Held(NamedTuple):
    """A held position: the state at (version, updated) as its commit wrote the row, and
    the applied request that made that version (None when the writer did not say)."""

    version: int
    updated: object
    state: object
    request_id: int | None

    def is_position(self, version: int, updated) -> bool:
        return self.version == version and self.updated == updated


def peek(match_id: int):
    """(version, updated) of the state held for the match, or None."""
    with _lock:
        entry = _states.get(match_id)
    return None if entry is None else entry[:2]


def peek_rows(match_id: int, version: int):
    """(match, seats) held with the position `version`, or None; left where they are, and
    not to be changed (a drain takes them first: `take_with_rows`)."""
    with _lock:
        held = _rows.get(match_id)
    return held[2] if held is not None and held[0] == version else None


def take_with_rows(match_id: int, version: int):
    """(the held state, (match, seats)) when both are held for the position `version`,
    else None; either way the entry and its rows are gone (the caller changes them)."""
    with _lock:
        held, rows = _states.pop(match_id, None), _rows.pop(match_id, None)
    if held is None or rows is None or held.version != version:
        return None
    if not held.is_position(rows[0], rows[1]):
        return None
    return held.state, rows[2]


def take(match_id: int, version: int, updated):
    """The held state if it is the position (version, updated), else None; either way the
    entry is gone (the caller changes the state, or the entry was stale)."""
    held = take_entry(match_id)
    return held.state if held is not None and held.is_position(version, updated) else None


def take_entry(match_id: int) -> Held | None:
    """What is held for the match, whatever its position, or None; the entry is gone."""
    with _lock:
        _rows.pop(match_id, None)
        return _states.pop(match_id, None)


def copy(match_id: int, version: int, updated):
    """A copy of the held state if it is the position (version, updated), else None; the
    entry stays. Copied under the lock: once a drain has taken the entry it changes it."""
    with _lock:
        held = _states.get(match_id)
        if held is None or not held.is_position(version, updated):
            return None
        return clone(held.state)


def put(match_id: int, version: int, updated, state, request_id=None) -> None:
    """After the commit of (version, updated): the caller no longer changes `state`.
    `request_id`: the applied request that made this version, when the caller knows it (a
    drain that finds the game moved on by another worker replays from here when the log
    shows this request at this version: matches/services/draining.py `_rebuilt`)."""
    if SIZE <= 0 or updated is None:
        return
    with _lock:
        _states[match_id] = Held(version, updated, state, request_id)
        _states.move_to_end(match_id)
        _rows.pop(match_id, None)  # of an older position
        while len(_states) > SIZE:
            gone, _held = _states.popitem(last=False)
            _rows.pop(gone, None)


def hold_rows(match_id: int, version: int, updated, rows) -> None:
    """With the position just `put`: the (match, seats) its drain committed, which the
    caller no longer changes. Dropped with the position (taken, replaced or evicted)."""
    with _lock:
        held = _states.get(match_id)
        if held is not None and held.is_position(version, updated):
            _rows[match_id] = (version, updated, rows)


def clear() -> None:
    with _lock:
        _states.clear()
        _rows.clear()

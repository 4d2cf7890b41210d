"""The current position of a match: its snapshot and the actions logged since, replayed.

A drain used to rewrite the engine's whole dump (~21 kB of JSON) with every move. The row
now keeps a snapshot (`Match.snapshot` at `Match.snapshot_version`), written when the game
starts, every SNAPSHOT_EVERY versions and when it ends; the position at any version after
it is the snapshot with the applied `ActionRequest`s since, in version order, replayed
through the engine. That is exact because the engine is deterministic (its seeded
generator is part of the state: DESIGN.md "Randomness") and because every change of a
game's engine state is an applied request: a person's action, a bot's move, a clock's
default move. A concession, a timeout, a judge's result or a player who leaves a table
changes the match row, never the engine state (tests/matches/test_snapshots.py).

Replaying is cheap beside parsing (compiled engine: ~10 us an action against ~0.15 ms to
load a dump), so a reader pays one small query and at most SNAPSHOT_EVERY - 1 engine steps;
the worker that committed a position keeps it in memory (matches/state_cache.py) and
replays nothing.
"""

import functools
import os

from django.db import connections

from engine.game import apply, new_game
from engine.serialize import dump, load

from . import state_cache
from .colonies import engine_ruleset

# Versions between two snapshots: a move writes ~21 kB / 32 of snapshot on average, and a
# reader replays at most 31 actions (~0.3 ms). KGK_SNAPSHOT_EVERY: tests and benches only.
SNAPSHOT_EVERY = int(os.environ.get("KGK_SNAPSHOT_EVERY", "32"))


class BrokenLog(RuntimeError):
    """The applied requests after a snapshot are not the versions that lead to the row's."""


def snapshot_due(match) -> bool:
    """Whether the position the caller is writing goes into the snapshot: the game is over
    (a finished game is read without a replay), or SNAPSHOT_EVERY versions have passed."""
    return match.is_over or match.version - match.snapshot_version >= SNAPSHOT_EVERY


def from_snapshot(text: str, after: int, log, upto: int):
    """The engine state at version `upto`: the snapshot `text` (version `after`) with `log`,
    the applied requests' (applied_version, seat, action id) after it in any order, applied.
    BrokenLog unless the log is exactly the versions after+1..upto."""
    return _replayed(load(text), after, log, upto)


def forward(state, after: int, log, upto: int):
    """`state`, the position at version `after`, brought to `upto` by the entries of `log`
    (a log read from an earlier snapshot) after it. BrokenLog unless they are exactly
    after+1..upto."""
    return _replayed(state, after, [entry for entry in log if entry[0] > after], upto)


def _replayed(state, after: int, log, upto: int):
    log = sorted(log)
    if [entry[0] for entry in log] != list(range(after + 1, upto + 1)):
        raise BrokenLog(f"versions {[e[0] for e in log]} after {after}, the row at {upto}")
    for _version, seat, action in log:
        apply(state, action, player=seat)
    return state


def logged_since(match, after: int, upto: int) -> list[tuple]:
    """(applied_version, seat, action id) of the actions applied after version `after`, up
    to `upto`: applied requests never change, so these are the same whenever they are read.

    Plain SQL: every GET and socket hello of a game asks this, and building the same
    queryset each time cost more CPU than the query and the replay together (bench/
    read_cost.py, bench/RESULTS.md)."""
    if after >= upto:
        return []
    with connections[match._state.db or "default"].cursor() as cursor:
        sql, applied = _logged_since_sql(type(match))
        cursor.execute(sql, [match.pk, applied, after, upto])
        return cursor.fetchall()


@functools.cache
def _logged_since_sql(match_model) -> tuple[str, str]:
    """The query and the applied status, from the request model of `match_model` (this
    module sits below matches/models.py, whose `Match.state` reads a position here)."""
    requests = match_model._meta.get_field("requests").related_model
    # The table's name comes from the model's metadata; every value is bound by the driver.
    sql = (
        f"SELECT applied_version, seat, action FROM {requests._meta.db_table} "  # nosec B608
        "WHERE match_id = %s AND status = %s AND applied_version > %s AND applied_version <= %s"
    )
    return sql, requests.APPLIED


def current_state(match):
    """A state of the caller's own (to change or not) at `match.version`; None before the
    game starts. A copy of the one this process holds for that position if it holds it,
    else the snapshot and the log since (one query; two when the snapshot was deferred)."""
    held = state_cache.copy(match.pk, match.version, match.updated)
    if held is not None:
        return held
    text, after = _snapshot(match)
    if not text:
        return None
    if after > match.version:  # `match` was read before a newer snapshot: from the start
        return _from_the_start(match, load(text))
    return from_snapshot(text, after, logged_since(match, after, match.version), match.version)


def current_dump(match) -> str:
    """The engine's dump of `current_state` ("" before the game starts)."""
    state = current_state(match)
    return "" if state is None else dump(state)


def taken_or_rebuilt(match):
    """The position of a LOCKED match row for a writer that changes it: this process's
    cached state if it is that position (taken: nobody else changes it meanwhile), else
    rebuilt from the snapshot and the log."""
    state = state_cache.take(match.pk, match.version, match.updated)
    return state if state is not None else current_state(match)


def _snapshot(match) -> tuple[str, int]:
    """(snapshot, its version); read from the database when `match` was loaded without
    it (the two together: a newer snapshot may have been written since)."""
    if "snapshot" not in match.get_deferred_fields():
        return match.snapshot, match.snapshot_version
    rows = type(match).objects.using(match._state.db).filter(pk=match.pk)
    return rows.values_list("snapshot", "snapshot_version").get()


def initial_state(match, snapshot, events=None):
    """The game as it was set up at version 0 (R 10, R 17.1): the seats' frozen colonies,
    the match's seed and ruleset; the card definitions and the players' names from any
    `snapshot` state of the game (a name as it was then: a user may be renamed since)."""
    seats = list(match.seats.using(match._state.db).order_by("seat"))
    return new_game(
        [[snapshot.defs[code] for code in s.colony] for s in seats],
        match.seed,
        engine_ruleset(match.ruleset, match.engine_options),
        names=tuple(p.name for p in snapshot.players),
        starting_player=match.starting_player,
        events=events,
    )


def _from_the_start(match, snapshot):
    log = logged_since(match, 0, match.version)
    return _replayed(initial_state(match, snapshot), 0, log, match.version)

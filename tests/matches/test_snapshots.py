"""The game state as a snapshot and a log (issue 16): a move no longer rewrites the ~21 kB
engine dump; the row keeps a snapshot every few versions, and the applied requests since
replay to the current position (matches/positions.py).

The whole games here (two seats, and a table of four) are played by a person choosing at
random, bots, the clock's default moves and a player who leaves; every position the drains
and bot batches had in memory is recorded. Then, at EVERY version, the snapshot written
before it plus the log gives that position's state_hash, and so does the replay from the
start (R 15: a game is the sequence of its legal decisions); at every commit a reader that
does not hold the position rebuilds it from the database exactly.
"""

import random
from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection
from django.utils import timezone

from engine.serialize import load, state_hash
from matches import fetch, positions, services, state_cache
from matches.models import ActionRequest, Match
from matches.services import commit

from .kit import assert_consistent

EVERY = 7  # snapshots every 7 versions here: many snapshots, logs of every length 0-6


class Recorder:
    """What the worker had: the position's hash at every version it applied, and every
    snapshot committed; `rebuilt` holds, per commit, whether a reader without the cache
    rebuilt the committed position exactly from the row and the log."""

    def __init__(self):
        self.hashes, self.snapshots, self.rebuilt = {}, {}, []


@pytest.fixture
def recorder(transactional_db, monkeypatch):
    monkeypatch.setattr(positions, "SNAPSHOT_EVERY", EVERY)
    state_cache.clear()
    record = Recorder()
    real_apply, real_put, real_start = (
        commit.apply_request,
        state_cache.put,
        commit.store_position,
    )

    def applying(match, seats, state, request, now):
        new = real_apply(match, seats, state, request, now)
        if new is not None:
            record.hashes[match.version] = state_hash(state)
        return new

    def storing(match, seats, state, now, snapshot=False):
        if match.version == 0:
            record.hashes[0] = state_hash(state)
        return real_start(match, seats, state, now, snapshot)

    def committed(match_id, version, updated, state, request_id=None):
        """After each commit that had the position in hand: what the database rebuilds."""
        row = Match.objects.get(pk=match_id)
        assert row.version == version
        record.snapshots[row.snapshot_version] = row.snapshot
        with mock.patch.object(state_cache, "copy", return_value=None):
            rebuilt = positions.current_state(row)
        record.rebuilt.append((version, state_hash(rebuilt) == state_hash(state)))
        real_put(match_id, version, updated, state)

    monkeypatch.setattr(commit, "apply_request", applying)
    monkeypatch.setattr(commit, "store_position", storing)
    monkeypatch.setattr(state_cache, "put", committed)
    yield record
    state_cache.clear()


def assert_every_version_rebuilds(match, record):
    """At every version v: the last snapshot at or before v + the log up to v, and the
    replay of the whole log from version 0, give the position the worker had at v."""
    match.refresh_from_db()
    assert sorted(record.hashes) == list(range(match.version + 1))
    log = sorted(positions.logged_since(match, 0, match.version))
    for version in range(match.version + 1):
        at = max(s for s in record.snapshots if s <= version)
        since = [entry for entry in log if at < entry[0] <= version]
        state = positions.from_snapshot(record.snapshots[at], at, since, version)
        assert state_hash(state) == record.hashes[version], f"version {version}"
    state = load(record.snapshots[0])  # the replay page's path: version 0 and every action
    for version, seat, action in log:
        from engine.game import apply

        apply(state, action, player=seat)
        assert state_hash(state) == record.hashes[version], f"replayed to {version}"
    assert record.rebuilt and all(ok for _v, ok in record.rebuilt), record.rebuilt
    assert match.snapshot_version == match.version  # the game is over: its last position
    assert_consistent(match)


def assert_compact(match, record):
    """A snapshot at the start, at most one per EVERY versions, and the last position."""
    assert len(record.snapshots) <= match.version // EVERY + 2, sorted(record.snapshots)


def time_out(match) -> str:
    """The clock runs out on the current decision (the bank is not empty): the sweep's
    default move (matches/clocks.py), drained like any move."""
    now = timezone.now()
    Match.objects.filter(pk=match.pk).update(
        decision_started=now - timedelta(seconds=2), decision_deadline=now - timedelta(seconds=1)
    )
    return services.submit_default_move(match.pk)


def play_as(match, user, seat, rng, moves, timeout_every=None):
    """`user` answers seat `seat`'s decisions at random (every `timeout_every`-th one is left
    to the clock) until the game ends or `moves` decisions were made; the bots and drains
    run eagerly after each commit. Returns the clock's default moves."""
    defaults = 0
    for made in range(moves):
        match.refresh_from_db()
        if match.status != Match.ACTIVE:
            break
        assert match.deciding_seat == seat, "a bot's decision was left waiting"
        if timeout_every and made % timeout_every == timeout_every - 1:
            assert time_out(match).startswith("default:")
            defaults += 1
            continue
        services.submit_action(
            match,
            user,
            client_action_id=f"r{match.version}",
            expected_version=match.version,
            action=rng.choice(match.legal_ids),
        )
    match.refresh_from_db()
    return defaults


@pytest.mark.parametrize("held", [True, False], ids=["held", "not-held"])
def test_every_position_of_a_two_seat_game_rebuilds_from_snapshot_and_log(
    recorder, players, decks, monkeypatch, held
):
    """R 15: a person (random choices, some left to the clock) against a bot, to the end.
    Not held: no position stays in memory (as when each move lands on another worker), so
    every drain and bot move rebuilds it from the snapshot and the log it reads."""
    if not held:
        monkeypatch.setattr(state_cache, "SIZE", 0)
    alice, _ = players
    colony = services.deck_colony(decks[0], "original")
    match = services.create_match(
        players=(alice, None), colonies=(colony, colony), bots=(None, "heuristic"), seed=61
    )
    defaults = play_as(match, alice, 0, random.Random(5), moves=3000, timeout_every=9)
    assert match.status == Match.FINISHED and defaults > 0
    clock = ActionRequest.objects.filter(match=match, origin="clock", status="applied")
    assert clock.count() == defaults
    assert match.version > 3 * EVERY
    assert_every_version_rebuilds(match, recorder)
    assert_compact(match, recorder)


def test_every_position_of_a_table_of_four_rebuilds_from_snapshot_and_log(recorder, players):
    """R 17.1: a person, three bots, the clock; the person leaves (a bot stands in, AMB-44)
    and the bots play on to the full ranking (R 17.1.6)."""
    from .kit import make_deck

    alice, _ = players
    colony = services.deck_colony(make_deck(alice, seed=12), "original")
    match = services.create_match(
        players=(alice, None, None, None),
        colonies=[colony] * 4,
        bots=(None, "heuristic", "random", "heuristic"),
        decks=(None,) * 4,
        seed=62,
    )
    # 20 of her moves: the decisions with one sensible answer are taken for her (issue 34)
    defaults = play_as(match, alice, 0, random.Random(6), moves=20, timeout_every=7)
    assert defaults > 0 and match.status == Match.ACTIVE
    services.concede(match, alice)  # leaves the table: the bots play on to the end
    match.refresh_from_db()
    assert match.status == Match.FINISHED and len(match.ranking) == 4
    assert_every_version_rebuilds(match, recorder)
    assert_compact(match, recorder)


def test_a_game_that_ends_off_the_log_keeps_its_last_position_as_the_snapshot(
    recorder, players, decks
):
    """A concession changes no engine state (R 15): the snapshot becomes the position of
    the last version, so the finished game is read (and replayed) without its log."""
    alice, bob = players
    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=63)
    rng = random.Random(7)
    for _ in range(EVERY + 2):
        match.refresh_from_db()
        user = (alice, bob)[match.deciding_seat]
        services.submit_action(
            match,
            user,
            client_action_id=f"m{match.version}",
            expected_version=match.version,
            action=rng.choice(match.legal_ids),
        )
    match.refresh_from_db()
    assert match.snapshot_version < match.version  # the last moves are in the log only
    services.concede(match, alice)
    match.refresh_from_db()
    assert match.status == Match.FINISHED and match.snapshot_version == match.version
    assert state_hash(load(match.snapshot)) == recorder.hashes[match.version]
    assert_every_version_rebuilds(match, recorder)


def test_a_match_read_before_a_newer_snapshot_still_gives_its_own_version(recorder, players, decks):
    """A match object read without the snapshot (as the action POST reads it) whose game
    has since written a newer snapshot: its `state` is still the position of ITS version,
    replayed from the start, never the newer one."""
    alice, bob = players
    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=64)
    rng = random.Random(8)
    for _ in range(3):
        match.refresh_from_db()
        services.submit_action(
            match,
            (alice, bob)[match.deciding_seat],
            client_action_id=f"s{match.version}",
            expected_version=match.version,
            action=rng.choice(match.legal_ids),
        )
    old = Match.objects.defer("snapshot").get(pk=match.pk)
    for _ in range(EVERY + 1):
        match.refresh_from_db()
        services.submit_action(
            match,
            (alice, bob)[match.deciding_seat],
            client_action_id=f"s{match.version}",
            expected_version=match.version,
            action=rng.choice(match.legal_ids),
        )
    assert Match.objects.get(pk=match.pk).snapshot_version > old.version
    state_cache.clear()
    assert state_hash(load(old.state)) == recorder.hashes[old.version]


def _match_updates(fn, *args):
    """The UPDATE statements of the match row that `fn` sends (SQLite runs each alone). On
    PostgreSQL the drain runs statements it prepared earlier on the connection by name
    (matches/fetch.py): they are forgotten first, so that its texts carry them whole."""
    if connection.vendor == "postgresql":
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("DEALLOCATE ALL")
        fetch._PREPARED.pop(connection.connection, None)
    sent = []

    def keep(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(keep):
        fn(*args)
    return [s for s in sent if 'UPDATE "matches_match"' in s]


def test_a_move_writes_the_snapshot_only_when_one_is_due(recorder, players, decks):
    """The compact write itself: a drained move between two snapshots leaves the state
    column out of its UPDATE (the old drain rewrote it every time); the move that reaches
    EVERY versions since the last snapshot writes it."""
    alice, bob = players
    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=65)
    rng = random.Random(9)
    writes = []
    for _ in range(EVERY):
        match.refresh_from_db()
        ActionRequest.objects.create(
            match=match,
            seat=match.deciding_seat,
            client_action_id=f"w{match.version}",
            expected_version=match.version,
            action=rng.choice(match.legal_ids),
        )
        updates = _match_updates(services.drain, match.pk)
        assert len(updates) == 1, updates
        writes.append('"state"' in updates[0])
    assert writes == [False] * (EVERY - 1) + [True]
    match.refresh_from_db()
    assert match.snapshot_version == match.version == EVERY


def test_a_reader_gets_a_copy_of_the_held_position_and_the_drain_keeps_its_own(
    recorder, players, decks
):
    """A reader in the worker's process (a bot's move, a push) copies the position the last
    drain committed: the same position (R 15), and what the reader does to its copy never
    reaches the state the next drain takes."""
    from engine.game import apply, legal_actions

    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=66)
    match.refresh_from_db()
    held = positions.current_state(match)  # the copy (create_match committed it here)
    assert state_hash(held) == recorder.hashes[0]
    apply(held, legal_actions(held)[0].id)  # the reader plays on its copy...
    assert state_cache.peek(match.pk) == (0, match.updated)
    taken = state_cache.take(match.pk, 0, match.updated)
    assert state_hash(taken) == recorder.hashes[0]  # ...and the held position is untouched

"""The drain's database round trips (issue 16): every statement it sends is counted.

On PostgreSQL a drained action costs two round trips, two query texts: the BEGIN with the
match row locked with its seats and the pending requests, and ONE batch of every write
(request updates, event inserts, the position with its version bump, the time banks) that
ends with the COMMIT (the issue's ceiling is four). `_on_the_wire` counts what reaches the
server from libpq's own trace of the protocol, psycopg's own BEGIN or COMMIT included;
`_counted`, what goes through Django's cursor. The pool may check a borrowed connection
(without a round trip while its socket is quiet: cardgame/pgpool).
"""

import json
import re
import tempfile
from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection
from psycopg import pq

from engine.game import apply, legal_actions, pending
from engine.serialize import load
from matches import fetch, services
from matches.models import ActionRequest, Match, MatchEvent
from matches.services import commit, draining

from .kit import assert_consistent

pytestmark = pytest.mark.postgres


def _pending(match, count, prefix="q"):
    """`count` requests stored as the web tier stores them (no drain queued here)."""
    match.refresh_from_db()
    state = load(match.state)
    rows = []
    for i in range(count):
        seat = pending(state).player
        action = legal_actions(state)[0].id
        rows.append(
            ActionRequest.objects.create(
                match=match,
                seat=seat,
                client_action_id=f"{prefix}{i}",
                expected_version=match.version + i,
                action=action,
            )
        )
        apply(state, action, player=seat)
    return rows


def _opens_with_begin(text) -> bool:
    """The text opens the transaction: its BEGIN comes before any statement of the drain's,
    after the PREPAREs a connection's first drain sends (matches/fetch.py)."""
    statements = [part.strip() for part in text.split(";\n")]
    heads = [i for i, part in enumerate(statements) if part.startswith("PREPARE ")]
    return statements[len(heads)] == "BEGIN" and heads == list(range(len(heads)))


def _counted(fn, *args):
    sent, commits = [], []

    def count(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    real_commit = connection.commit

    def commit():  # counted when it goes to the server (not when the batch committed)
        if connection.connection.pgconn.transaction_status != pq.TransactionStatus.IDLE:
            commits.append(1)
        return real_commit()

    with connection.execute_wrapper(count), mock.patch.object(connection, "commit", commit):
        result = fn(*args)
    return result, sent, commits


def _on_the_wire(fn, *args):
    """fn's result and the messages this connection sent the server meanwhile, from libpq's
    own trace of the protocol (psycopg's BEGIN, COMMIT and ROLLBACK included, which do not
    go through Django's cursor): [("Query", text), ...] ("Sync" ends an extended-protocol
    exchange; each Query or Sync is one round trip)."""
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    with tempfile.TemporaryFile("w+") as trace:
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        try:
            result = fn(*args)
        finally:
            pgconn.untrace()
        trace.seek(0)
        # one message per entry: "F|B <tab> length <tab> kind <tab> fields"; a query's text
        # may span lines
        messages = re.split(r"\n(?=[FB]\t\d+\t)", trace.read().strip())
    sent = []
    for message in messages:
        direction, _length, kind, fields = (message.split("\t", 3) + ["", "", ""])[:4]
        if direction == "F" and kind in ("Query", "Sync"):
            sent.append((kind, fields.strip().strip('"')))
    return result, sent


@pytest.mark.parametrize("count", [1, 3])
def test_a_drained_action_sends_the_server_two_query_texts(pg, players, decks, count):
    """The whole drain on the wire: the locked reads' text, which opens the transaction
    (its BEGIN at the head: psycopg sends none of its own, a round trip less), and the
    writes' batch, which ends with the COMMIT. Nothing else: no BEGIN, COMMIT or check
    of its own."""
    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=9)
    _pending(match, count)

    applied, sent = _on_the_wire(services.drain, match.pk)

    assert applied == count
    assert [kind for kind, _text in sent] == ["Query", "Query"], sent
    reads, writes = (text for _kind, text in sent)
    assert _opens_with_begin(reads) and "FOR UPDATE" in reads
    assert writes.rstrip(";").endswith("COMMIT")
    assert connection.connection.pgconn.transaction_status == pq.TransactionStatus.IDLE
    # after the block, Django and psycopg agree again (autocommit, as outside any block)
    assert connection.get_autocommit() and connection.connection.autocommit
    assert_consistent(Match.objects.get(pk=match.pk))


def test_a_drain_that_fails_after_its_begin_rolls_back(pg, players, decks):
    """The transaction the reads' text opened is rolled back when the drain fails after it
    (psycopg's ROLLBACK does not depend on who sent the BEGIN): nothing written, the
    request still pending for the next drain, the connection usable."""
    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=10)
    (request,) = _pending(match, 1)
    before = Match.objects.get(pk=match.pk)

    def failing_drain():
        with mock.patch.object(commit, "apply_request", side_effect=RuntimeError("boom")):
            with pytest.raises(RuntimeError):
                services.drain(match.pk)

    _result, sent = _on_the_wire(failing_drain)

    assert [text for _kind, text in sent][1:] == ["ROLLBACK"], sent
    assert _opens_with_begin(sent[0][1])
    assert Match.objects.get(pk=match.pk).version == before.version
    assert ActionRequest.objects.get(pk=request.pk).status == ActionRequest.PENDING
    assert services.drain(match.pk) == 1


@pytest.mark.parametrize("count", [1, 3])
def test_a_drained_action_costs_at_most_four_round_trips(pg, players, decks, count, settings):
    settings.MATCHES_CASUAL_INCREMENT = 0  # banks only go down here (no turn's increment)
    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=7)
    # an old decision start, so the drain charges the mover's time bank (one more write)
    Match.objects.filter(pk=match.pk).update(decision_started=match.started - timedelta(seconds=5))
    before = Match.objects.get(pk=match.pk)
    banks = list(before.seats.order_by("seat").values_list("time_bank", flat=True))
    requests = _pending(match, count)

    applied, sent, commits = _counted(services.drain, match.pk)

    assert applied == count
    assert len(sent) + len(commits) <= 2, sent  # the reads' text, the writes' batch
    assert commits == [] and sent[-1].endswith("COMMIT")  # the writes' batch commits
    # ... and every write happened: the batch is not a statement that was left out
    after = Match.objects.get(pk=match.pk)
    assert after.version == before.version + count
    assert after.seq > before.seq
    assert MatchEvent.objects.filter(match=match).count() == after.seq
    statuses = ActionRequest.objects.filter(pk__in=[r.pk for r in requests])
    assert sorted(statuses.values_list("applied_version", flat=True)) == list(
        range(before.version + 1, after.version + 1)
    )
    assert set(statuses.values_list("status", flat=True)) == {"applied"}
    moved = list(after.seats.order_by("seat").values_list("time_bank", flat=True))
    assert moved != banks and all(b <= a for a, b in zip(banks, moved, strict=True))
    assert after.updated > before.updated
    assert_consistent(after)


def test_a_duplicate_delivery_reads_twice_and_writes_nothing(pg, players, decks):
    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=8)
    _pending(match, 1)
    services.drain(match.pk)
    before = Match.objects.get(pk=match.pk)

    applied, sent, _commits = _counted(services.drain, match.pk)

    assert applied == 0 and len(sent) == 1  # the two reads, one query text
    assert Match.objects.get(pk=match.pk).version == before.version


@pytest.mark.parametrize("count", [1, 3])
def test_a_drain_that_rebuilds_the_position_costs_no_more_round_trips(pg, players, decks, count):
    """A position this process does not hold (the move before was applied by another
    worker): the snapshot and the actions logged since come with the same two reads
    (matches/positions.py), so the drain still costs at most four round trips."""
    from matches import positions, state_cache

    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=9)
    _pending(match, 3)
    services.drain(match.pk)
    before = Match.objects.get(pk=match.pk)
    assert 0 == before.snapshot_version < before.version < positions.SNAPSHOT_EVERY
    state_cache.clear()  # "another worker": nothing of this match in memory
    _pending(match, count, prefix="r")

    applied, sent, commits = _counted(services.drain, match.pk)

    assert applied == count
    assert len(sent) + len(commits) <= 2, sent
    after = Match.objects.get(pk=match.pk)
    assert after.version == before.version + count
    assert_consistent(after)


def _held_one_version_back(match, count_before=3):
    """This process holds the match's position one version behind the row, as a worker
    does after the other worker drained the game's last move (both drains real)."""
    from matches import state_cache

    _pending(match, count_before, prefix="a")
    services.drain(match.pk)
    held = state_cache.take_entry(match.pk)  # what this worker committed
    assert held is not None and held.request_id is not None
    _pending(match, 1, prefix="b")
    services.drain(match.pk)  # "the other worker": rebuilt from the snapshot, no entry held
    state_cache.clear()
    state_cache.put(match.pk, *held)
    return held


def test_a_drain_replays_from_the_older_position_it_holds(pg, players, decks):
    """The game moved on by one version since this worker drained it: the locked read
    leaves the ~21 kB snapshot out, the position is this worker's own with the one action
    since replayed, and the drain still costs two round trips."""
    from matches import positions

    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=10)
    held = _held_one_version_back(match)
    before = Match.objects.get(pk=match.pk)
    assert before.version == held.version + 1 and before.snapshot_version < held.version
    _pending(match, 1, prefix="c")

    with (
        mock.patch.object(positions, "from_snapshot", wraps=positions.from_snapshot) as parsed,
        mock.patch.object(positions, "forward", wraps=positions.forward) as forwarded,
        mock.patch.object(draining, "_rebuilt", wraps=draining._rebuilt) as rebuilt,
    ):
        applied, sent, commits = _counted(services.drain, match.pk)

    assert applied == 1
    assert len(sent) + len(commits) <= 2, sent
    assert parsed.call_count == 0 and forwarded.call_count == 1
    assert forwarded.call_args.args[1] == held.version
    assert rebuilt.call_args.args[0].snapshot == ""  # the locked read left it out
    assert_consistent(Match.objects.get(pk=match.pk))


def test_an_older_position_not_made_by_the_logged_request_is_not_used(pg, players, decks):
    """The held entry says another request made its version than the log does (a database
    restored under a running worker): the drain reads the snapshot instead."""
    from matches import positions, state_cache

    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=11)
    version, updated, state, _request = _held_one_version_back(match)
    state_cache.clear()
    state_cache.put(match.pk, version, updated, state, -1)  # no such request
    _pending(match, 1, prefix="c")

    with mock.patch.object(positions, "forward") as forwarded:
        applied = services.drain(match.pk)

    assert applied == 1 and forwarded.call_count == 0
    assert_consistent(Match.objects.get(pk=match.pk))


def _socket_move(match, players, prefix="s", offset=0):
    """A legal move of the deciding player as a socket sends it to a worker, unstored
    (services.SocketMove), and the answers the drain sends its channel."""
    match.refresh_from_db()
    return services.SocketMove(
        players[match.deciding_seat].pk, f"{prefix}{match.version}", match.version + offset,
        match.legal_ids[0], "reply!1",
    )  # fmt: skip


def test_a_sockets_move_is_stored_in_the_drains_first_round_trip(pg, players, decks):
    """Issue 16: a move sent over the socket costs no INSERT of the web's own: the drain
    stores it between the lock and the pending read, in the same query text, and the whole
    stored-and-applied move is still two round trips, committed durably (the web stored
    nothing, so no relaxed commit). Its socket gets 202 and the applied request after."""
    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=12)
    move = _socket_move(match, players)
    before = Match.objects.get(pk=match.pk)

    with mock.patch("matches.push.push_update") as pushed:
        with mock.patch("matches.push.send_answer") as alone:
            applied, sent = _on_the_wire(services.drain_move, match.pk, move)

    assert applied == 1
    assert [kind for kind, _text in sent] == ["Query", "Query"], sent
    reads, writes = (text for _kind, text in sent)
    assert _opens_with_begin(reads) and "FOR UPDATE" in reads and "INSERT INTO" in reads
    assert reads.index("FOR UPDATE") < reads.index("INSERT INTO")  # checked under the lock
    assert "synchronous_commit" not in writes and writes.rstrip(";").endswith("COMMIT")
    stored = ActionRequest.objects.get(match=match, client_action_id=move.client_action_id)
    assert (stored.status, stored.applied_version) == ("applied", before.version + 1)
    assert Match.objects.get(pk=match.pk).version == before.version + 1
    assert alone.call_count == 0
    reply_to, client_action_id, text = pushed.call_args.args[4]
    assert (reply_to, client_action_id) == ("reply!1", move.client_action_id)
    answer = json.loads(text)
    assert answer["status"] == 202 and answer["client_action_id"] == move.client_action_id
    assert answer["body"]["request"]["id"] == stored.pk
    assert answer["body"]["request"]["status"] == "applied"
    assert_consistent(Match.objects.get(pk=match.pk))


def test_a_sockets_move_delivered_twice_is_stored_and_made_once(pg, players, decks):
    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=13)
    move = _socket_move(match, players)
    before = Match.objects.get(pk=match.pk)

    with mock.patch("matches.push.send_answer") as alone:
        assert services.drain_move(match.pk, move) == 1
        assert services.drain_move(match.pk, move) == 0  # the same task delivered again

    rows = ActionRequest.objects.filter(match=match, client_action_id=move.client_action_id)
    assert rows.count() == 1 and rows.get().status == "applied"
    assert Match.objects.get(pk=match.pk).version == before.version + 1
    # the second delivery stored nothing: its web process is told to go the POST's way
    # (which finds the stored request and answers 202 with it)
    alone.assert_called_once_with("reply!1", move.client_action_id, "")


@pytest.mark.parametrize(
    "spoil",
    [
        {"expected_version": -1},  # its shape: not even sent to the database
        {"expected_version": "x"},
        {"client_action_id": "a:b"},
        {"offset": 1},  # a version not reached yet
        {"offset": -1},  # stale
        {"seat": "other"},  # not the player's decision
        {"action": "not-legal"},
    ],
)
def test_a_sockets_move_that_would_not_be_stored_is_answered_not_stored(pg, players, decks, spoil):
    """What `store_move` would not store, the drain does not either; the web then goes the
    POST's way, which says why (tests/matches/test_socket_moves.py)."""
    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=14)
    move = _socket_move(match, players, offset=spoil.get("offset", 0))
    if spoil.get("seat") == "other":
        move = move._replace(user_id=players[1 - match.deciding_seat].pk)
    fields = {k: v for k, v in spoil.items() if k in services.SocketMove._fields}
    move = move._replace(**fields)
    before = Match.objects.get(pk=match.pk)

    with mock.patch("matches.push.send_answer") as alone:
        assert services.drain_move(match.pk, move) == 0

    alone.assert_called_once_with("reply!1", move.client_action_id, "")
    assert not ActionRequest.objects.filter(match=match).exists()
    assert Match.objects.get(pk=match.pk).version == before.version


def test_a_connections_later_drains_run_its_prepared_statements(pg, players, decks):
    """The drain's statements are planned once per connection (PREPARE in the first drain's
    own texts, no round trip of their own); a later drain sends EXECUTEs only, still two
    query texts, and applies its action as the first did."""
    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=15)
    _pending(match, 1, prefix="x")
    _first, first = _on_the_wire(services.drain, match.pk)
    _pending(match, 1, prefix="y")

    applied, sent = _on_the_wire(services.drain, match.pk)

    assert applied == 1
    assert [kind for kind, _text in sent] == ["Query", "Query"], sent
    assert all("PREPARE" in text for _kind, text in first)
    reads, writes = (text for _kind, text in sent)
    # (the writes may prepare an INSERT of another number of events than the first's)
    assert "PREPARE" not in reads and "SELECT" not in reads
    assert reads.startswith("BEGIN;\nEXECUTE kgk_") and writes.rstrip(";").endswith("COMMIT")
    run = [part for part in writes.split(";\n") if not part.startswith("PREPARE ")]
    assert not any(part.startswith(("UPDATE", "INSERT", "SELECT")) for part in run), run
    assert_consistent(Match.objects.get(pk=match.pk))


def test_a_connection_whose_text_failed_asks_which_statements_it_holds(pg):
    """Which PREPAREs of a failed text ran is unknown: the next text on that connection asks
    the server (one query) instead of preparing again (which would fail: "already exists")
    or trusting statements that are not there."""
    statement = ("SELECT 1 / %s", ("integer",))
    with connection.cursor() as cursor:  # a text that fails after its PREPARE ran
        with pytest.raises(Exception, match="division by zero"):
            fetch.execute_prepared(cursor, [(statement[0], [0], statement[1])])
    assert connection.connection not in fetch._PREPARED

    def again():
        with connection.cursor() as cursor:
            fetch.execute_prepared(cursor, [(statement[0], [4], statement[1])])
            return cursor.fetchall()

    rows, sent = _on_the_wire(again)

    assert rows == [(0,)]
    assert sent[0][1].startswith("SELECT name FROM pg_prepared_statements")
    assert sent[1][1].startswith("EXECUTE kgk_") and len(sent) == 2  # not prepared again


def test_a_drains_push_is_made_while_its_writes_and_commit_are_out(pg, players, decks):
    """Issue 16: the push's messages are made between the batch's send and the read of
    its results (the server is running the writes and flushing the commit meanwhile), once,
    and the push after the commit sends those: the drain still costs two query texts."""
    from matches import push

    colonies = [services.deck_colony(d, "original") for d in decks]
    match = services.create_match(players=players, colonies=colonies, seed=16)
    _pending(match, 1, prefix="m")
    made_while = []
    real = push.update_texts

    def spying(*args, **kwargs):
        made_while.append(connection.connection.info.transaction_status)
        return real(*args, **kwargs)

    with mock.patch.object(push, "update_texts", spying):
        applied, sent = _on_the_wire(services.drain, match.pk)

    assert applied == 1
    assert [kind for kind, _text in sent] == ["Query", "Query"], sent
    assert made_while == [pq.TransactionStatus.ACTIVE]  # the batch in flight, not after it
    assert_consistent(Match.objects.get(pk=match.pk))


def test_work_done_while_a_text_is_out_sees_its_errors_raised_after(pg):
    """`fetch.execute_while`: the work runs once, the text goes through Django's execute (its
    wrappers and its debug log see it), and a text that fails raises Django's error after
    the work, leaving the connection usable once rolled back."""
    from django.db import DataError, transaction
    from django.test.utils import CaptureQueriesContext

    done, seen = [], []

    def wrapper(execute, sql, params, many, context):
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper), CaptureQueriesContext(connection) as logged:
        with connection.cursor() as cursor:
            fetch.execute_while(cursor, "SELECT %s + 1", [41], lambda: done.append(1))
            assert cursor.fetchall() == [(42,)]
    assert done == [1] and seen == ["SELECT %s + 1"]
    assert [query["sql"] for query in logged.captured_queries] == ["SELECT 41 + 1"]

    with pytest.raises(DataError, match="division by zero"):
        with transaction.atomic(), connection.cursor() as cursor:
            fetch.execute_while(cursor, "SELECT 1 / %s", [0], lambda: done.append(2))
    assert done == [1, 2]
    with connection.cursor() as cursor:
        cursor.execute("SELECT 7")
        assert cursor.fetchall() == [(7,)]


def test_without_psycopgs_generator_the_work_waits_for_the_results(pg):
    """`execute_while` drives psycopg's own (not public) `_execute_gen`; a psycopg without
    it still runs the text, and the work after its results, as before the overlap."""
    with connection.cursor() as cursor:
        raw = cursor.cursor

        class Plain:  # a cursor with no `_execute_gen`
            connection = raw.connection

            def execute(self, sql, params=None):
                raw.execute(sql, params)
                return self

        statuses = []
        work = lambda: statuses.append(raw.connection.info.transaction_status)  # noqa: E731
        fetch._SendThenRead(Plain(), work).execute("SELECT %s + 1", [4])
        assert raw.fetchall() == [(5,)]
    assert statuses and pq.TransactionStatus.ACTIVE not in statuses


def test_a_texts_parameters_are_written_as_psycopgs_client_side_binding_writes_them(pg):
    """The drain's texts are bound by `fetch._bound` (psycopg parses a text of more than 50
    parameters again on every execute): the same bytes as psycopg's own binding of the
    same text (`mogrify`), for every kind of value the drain sends, quotes, percent signs
    and non-ASCII text included; the server reads them back as they were."""
    import psycopg
    from django.utils import timezone
    from psycopg.types.json import Jsonb

    values = [7, -1, 2.5, True, None, "it's 100% kész", "", "a\\b", timezone.now(),
              Jsonb({"kind": "move", "to": [1], "name": "Acélsas vadász", "why": "50%'s"}),
              Jsonb(["pass"]), Jsonb(None)] * 6  # fmt: skip
    text = "SELECT " + ", ".join(["%s"] * len(values)) + ", '%%'"
    raw = connection.connection

    bound = fetch._bound(raw, text, values)

    assert len(values) > 50
    assert bound == psycopg.ClientCursor(raw).mogrify(text, values)
    with connection.cursor() as cursor:
        cursor.execute(bound)
        row = cursor.fetchone()
    assert row[:9] == (7, -1, 2.5, True, None, "it's 100% kész", "", "a\\b", values[8])
    assert json.loads(row[9]) == values[9].obj and row[-1] == "%"  # Django reads jsonb as text

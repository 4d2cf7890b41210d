"""The SQL the drain needs: the locked read of a match with its pending requests
(`locked_seats_and_pending`), a move stored by one statement (`store_move_sql`), the held
position's check (`expect_position`), and `WriteBatch`, the writes sent in one round trip.
"""

import functools
import threading
from datetime import UTC, datetime

from django.db import connection
from django.db.models import Case, F, Q, TextField, Value, When
from django.utils import timezone

from ..fetch import Raw, begins_here, execute_prepared, fetch_together
from ..models import ActionRequest, Match, Seat


def store_move_params(
    match_id, user_id, client_action_id, expected_version, action, created=None
) -> list:
    return [client_action_id, expected_version, action, created or timezone.now(),  # the row
            user_id, int(match_id), expected_version, action]  # the seat, the tests  # fmt: skip


# `store_move_sql`'s parameters' types, for its PREPARE (matches/fetch.py): those of its
# SELECT list are not inferred from the columns they go to
STORE_MOVE_TYPES = ("text", "integer", "text", "timestamptz", "integer", "integer", "integer",
                     "text")  # fmt: skip


@functools.cache
def store_move_sql() -> str:
    """`store_move`'s statement. Its WHERE clause is `moves._check_now` (a test holds the two to the
    same answers); the seat is the user's first one, as `viewer_seat` takes it. A retried
    client_action_id inserts nothing (ON CONFLICT): the long way answers it."""
    quote = connection.ops.quote_name
    request, match, seat = (quote(m._meta.db_table) for m in (ActionRequest, Match, Seat))
    return (
        f"INSERT INTO {request} (match_id, seat, origin, client_action_id, expected_version, "  # nosec B608
        "action, status, code, message, created, applied_version, explanation) "
        f"SELECT m.id, s.seat, '{ActionRequest.CLIENT}', %s, %s, %s, '{ActionRequest.PENDING}', "
        "'', '', %s, NULL, NULL "
        f"FROM {match} m JOIN LATERAL (SELECT min(seat) AS seat FROM {seat} "
        "WHERE match_id = m.id AND user_id = %s) s ON TRUE "
        f"WHERE m.id = %s AND m.status = '{Match.ACTIVE}' AND m.version = %s "
        "AND m.deciding_seat = s.seat AND m.legal_ids @> jsonb_build_array(%s::text) "
        "ON CONFLICT DO NOTHING RETURNING id, seat"
    )


MOVED = "KGK01"  # kgk_expect's SQLSTATE (migration 0007)


def expect_position(match_id: int, version: int, updated) -> list[tuple[str, list]]:
    """The row lock, then `kgk_expect` of the row being (version, updated), still active,
    with no request pending: two statements, the second with a snapshot taken after the
    lock (it sees what a drain that held the lock before committed)."""
    lock, expect = _expect_sql()
    return [(lock, [match_id]), (expect, [match_id, version, updated, match_id])]


@functools.cache
def _expect_sql() -> tuple[str, str]:
    quote = connection.ops.quote_name
    match, request = quote(Match._meta.db_table), quote(ActionRequest._meta.db_table)
    return (
        f"SELECT 1 FROM {match} WHERE id = %s FOR UPDATE",  # nosec B608
        f"SELECT kgk_expect(EXISTS (SELECT 1 FROM {match} WHERE id = %s AND version = %s "  # nosec B608
        f"AND updated = %s AND status = '{Match.ACTIVE}') AND NOT EXISTS (SELECT 1 FROM "
        f"{request} WHERE match_id = %s AND status = '{ActionRequest.PENDING}'))",
    )


def locked_seats_and_pending(
    match_id: int, cached, move=None
) -> tuple[list[Seat], list, list, dict, ActionRequest | None]:
    """The match's seats (with their users) and the match row itself, locked FOR UPDATE,
    then its pending requests, in ONE round trip on PostgreSQL; every seat shares one
    `Match` object (seats[0].match). Third, the log: (applied_version, seat, action) of
    the requests applied since the snapshot, which rebuild the position; fourth, their ids
    by applied version.

    The requests are read by a statement of their own AFTER the lock's (in the same
    query text: each statement takes its own snapshot, so they include what a concurrent
    drain committed while this one waited for the lock). `cached`, the (version, updated)
    of the state this process holds, leaves the snapshot and the log out when the row
    still is that position, and the snapshot alone when the row is a later position of
    the same snapshot (the held one and the log since rebuild it); the snapshot is read on
    the first seat's row only either way.

    A socket's `move` is stored between the lock and the requests' read (`store_move`'s
    INSERT, the same tests: after the lock, so they see the row as it is), in the same
    text; fifth, the request it stored, or None (nothing stored, or not on PostgreSQL)."""
    stored = []
    if connection.vendor != "postgresql":
        seats = list(_seats_query(match_id, cached))
        requests = list(_pending_query(match_id, cached))
    else:
        values = {_STAND_IN_MATCH: match_id}
        if cached is not None:
            values.update({_STAND_IN_VERSION: cached[0], _STAND_IN_UPDATED: cached[1]})
        stand_in = None if cached is None else (_STAND_IN_VERSION, _STAND_IN_UPDATED)
        shape = "uncached" if cached is None else "cached"
        lock = _TEMPLATES.get(f"seats:{shape}", _seats_query, _STAND_IN_MATCH, stand_in)
        pending = _TEMPLATES.get(f"pending:{shape}", _pending_query, _STAND_IN_MATCH, stand_in)
        if move is None:
            seats, requests = fetch_together(lock.bind(values), pending.bind(values))
        else:
            seats, stored, requests = fetch_together(
                lock.bind(values), Raw(store_move_sql(), store_move_params(match_id, *move[:4]), STORE_MOVE_TYPES),
                pending.bind(values),
            )  # fmt: skip
    if seats:
        seats[0].match.snapshot = seats[0].snapshot_text
    for seat in seats[1:]:
        seat.match = seats[0].match
    done = [r for r in requests if r.status != r.PENDING]
    log = [(r.applied_version, r.seat, r.action) for r in done]
    made_by = {r.applied_version: r.pk for r in done}
    pending = [r for r in requests if r.status == r.PENDING]
    mine = next((r for r in pending if stored and r.pk == stored[0][0]), None)
    if mine is not None:  # left out of the read (`_pending_query`); its answer says it
        mine.client_action_id = move.client_action_id
    return seats, pending, log, made_by, mine


def _seats_query(match_id, cached):
    same = Q(seat__gt=0)  # the snapshot on the first seat's row only
    if cached is not None:  # the held position, or a later one of the same snapshot
        same |= Q(match__version=cached[0], match__updated=cached[1])
        same |= Q(match__snapshot_version__lt=cached[0], match__version__gt=cached[0])
    return (
        Seat.objects.select_related("match", "user")
        .select_for_update(of=("match",))
        # nothing the drain or its push reads: the colony (45 codes of JSON, used when the
        # game starts) and the user's account fields besides the name
        .defer("match__snapshot", "colony", *(f"user__{name}" for name in _USER_UNREAD))
        .annotate(
            snapshot_text=Case(
                When(same, then=Value("")), default=F("match__snapshot"), output_field=TextField()
            )
        )
        .filter(match_id=match_id)
        .order_by("seat")
    )


_USER_UNREAD = ("password", "last_login", "first_name", "last_name", "email", "date_joined")


def _pending_query(match_id, cached):
    """The pending requests, and the applied ones after the snapshot unless the row is the
    cached position (the lock's statement holds the row: the snapshot cannot move)."""
    log = Q(status=ActionRequest.APPLIED, applied_version__gt=F("match__snapshot_version"))
    if cached is not None:
        log &= ~Q(match__version=cached[0], match__updated=cached[1])
    wanted = Q(status=ActionRequest.PENDING) | log
    rows = ActionRequest.objects.filter(wanted, match_id=match_id).order_by("id")
    # What the drain reads and writes, no more: a log row built with its creation time and
    # explanation cost more than replaying its action (bench/RESULTS.md, issue 16).
    return rows.only("seat", "expected_version", "action", "applied_version", *REQUEST_FIELDS)


# Stand-ins compiled into the drain's two SELECTs once per thread on PostgreSQL (Django's
# compiler took ~15 % of a drain's CPU compiling the same text every time); each drain
# binds its own values in their place (PostgreSQL takes ints and datetimes as they are).
_STAND_IN_MATCH = -7_000_001
_STAND_IN_VERSION = 2_147_000_002  # within the column's range, or Django drops the test
_STAND_IN_UPDATED = datetime(1901, 2, 3, 4, 5, 6, 789012, tzinfo=UTC)


class _Compiled:
    """A queryset's SQL, parameters and compiler (which turns its rows into objects)."""

    def __init__(self, queryset):
        self.queryset = queryset
        self.compiler = queryset.query.get_compiler(using=queryset.db)
        self.sql, self.params = self.compiler.as_sql()
        stand_ins = {_STAND_IN_MATCH, _STAND_IN_VERSION, _STAND_IN_UPDATED}
        self.slots = [i for i, p in enumerate(self.params) if _is_one_of(p, stand_ins)]

    def bind(self, values: dict):
        """(queryset, compiler, sql, params) with each stand-in parameter replaced."""
        params = list(self.params)
        for i in self.slots:
            params[i] = values[params[i]]
        return self.queryset, self.compiler, self.sql, params


def _is_one_of(value, stand_ins) -> bool:
    return isinstance(value, int | datetime) and value in stand_ins


class _Templates(threading.local):
    def __init__(self):
        self.compiled = {}

    def get(self, key, build, *args) -> _Compiled:
        if key not in self.compiled:
            self.compiled[key] = _Compiled(build(*args))
        return self.compiled[key]


_TEMPLATES = _Templates()


class WriteBatch:
    """Statements compiled by the ORM and sent together: ONE round trip on PostgreSQL
    (psycopg's client-side binding, Django's default, takes several statements in one
    execute), one after another elsewhere (SQLite, the embedded default)."""

    def __init__(self):
        self.statements = []
        self.returning = []  # indexes of the statements whose rows `run` returns

    def relax_commit(self):
        """Don't wait for the WAL flush of this commit (PostgreSQL only).

        Safe here because nothing is lost if the server crashes right after: the requests
        were committed durably by the web tier, and a lost drain leaves them `pending`, so
        the sweep drains them again with the same result (the engine and the bots' seeds
        are deterministic). It saves the fsync wait on the hot path of every move. (SET
        LOCAL holds until the commit, so it may go out with the writes it relaxes.)
        """
        if connection.vendor == "postgresql":
            self.statements.append(("SET LOCAL synchronous_commit TO OFF", ()))

    def update(self, model, pk, values: dict):
        """UPDATE model SET values WHERE pk: the statement's text made once per model and
        fields (Django's UpdateQuery compiled it on every drain, ~15 % of the drain's CPU),
        each value prepared for the database by its field as the ORM's update does."""
        text, fields = _update_statement(model, tuple(values))
        params = [
            f.get_db_prep_save(v, connection) for f, v in zip(fields, values.values(), strict=True)
        ]
        params.append(model._meta.pk.get_db_prep_value(pk, connection))
        self.statements.append((text, tuple(params)))

    def insert(self, model, objs, returning=False):
        """INSERT of `objs` in one statement, its text made once per model and row count;
        each value taken (pre_save) and prepared by its field as bulk_create does.
        `returning`: `run` returns the new rows' primary keys."""
        if not objs:
            return
        text, fields = _insert_statement(model, len(objs))
        if returning:
            self.returning.append(len(self.statements))
            text += f" RETURNING {connection.ops.quote_name(model._meta.pk.column)}"
        params = [
            field.get_db_prep_save(field.pre_save(obj, True), connection)
            for obj in objs
            for field in fields
        ]
        self.statements.append((text, tuple(params)))

    def add(self, sql: str, params=()):
        """A statement of the caller's own (its rows are not read)."""
        self.statements.append((sql, tuple(params)))

    def requests(self, requests):
        for request in requests:
            self.update(ActionRequest, request.pk, {f: getattr(request, f) for f in REQUEST_FIELDS})

    def run(self, *, commit=False, meanwhile=None) -> list[list]:
        """Send every statement; the rows of those added with `returning`, in order. `commit`:
        the batch is the last thing its transaction sends,
        and on PostgreSQL its last statement is the COMMIT, which saves the commit's own
        round trip; the atomic block's commit then finds nothing to do (psycopg sends no
        COMMIT for a connection that is not in a transaction). Only in the outermost block:
        inside a caller's transaction (a test's) the block is a savepoint, and it commits
        the usual way. As the first statement of its block, the text also carries the
        BEGIN (`fetch.begins_here`). `meanwhile`: work done while PostgreSQL runs the batch
        (elsewhere, after it); it must not use the database or raise (`fetch.execute_while`)."""
        if not self.statements:
            if meanwhile is not None:
                meanwhile()
            return []
        if commit and connection.vendor == "postgresql" and len(connection.atomic_blocks) == 1:
            self.statements.append(("COMMIT", ()))
        rows = []
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":  # prepared once per connection, as the reads
                statements = [(sql, params, ()) for sql, params in self.statements]
                skipped = execute_prepared(
                    cursor, statements, begin=begins_here(), meanwhile=meanwhile
                )
                rows = _rows_of(cursor, skipped, self.returning)
            else:
                for n, (statement, params) in enumerate(self.statements):
                    cursor.execute(statement, params)
                    if n in self.returning:
                        rows.append(cursor.fetchall())
                if meanwhile is not None:
                    meanwhile()
        self.statements, self.returning = [], []
        return rows


def _rows_of(cursor, skipped: int, wanted: list) -> list[list]:
    """The rows of the statements numbered `wanted` (ascending) of a text just run, whose
    first `skipped` results are empty (`execute_prepared`)."""
    rows, at = [], -skipped
    for n in wanted:
        while at < n:
            cursor.nextset()
            at += 1
        rows.append(cursor.fetchall())
    return rows


_UPDATE_STATEMENTS: dict = {}  # (vendor, model, field names) -> (text, fields)
_INSERT_STATEMENTS: dict = {}  # (vendor, model, row count) -> (text, fields)


def _update_statement(model, names: tuple) -> tuple[str, list]:
    """("UPDATE table SET a = %s, b = %s WHERE id = %s", [field a, field b]) for plain
    values of plain fields: what the drain writes (tests/matches/test_write_batch.py
    compares it with the ORM's own update)."""
    key = (connection.vendor, model, names)
    found = _UPDATE_STATEMENTS.get(key)
    if found is None:
        meta, quote = model._meta, connection.ops.quote_name
        fields = [meta.get_field(name) for name in names]
        for field in fields:
            if hasattr(field, "get_placeholder") or field.remote_field or field.primary_key:
                raise ValueError(f"{field} needs the ORM's own update")
        sets = ", ".join(f"{quote(field.column)} = %s" for field in fields)
        table = quote(meta.db_table)
        # names from the model's metadata, quoted; every value is a bound parameter
        text = f"UPDATE {table} SET {sets} WHERE {table}.{quote(meta.pk.column)} = %s"  # nosec B608
        found = _UPDATE_STATEMENTS[key] = (text, fields)
    return found


def _insert_statement(model, rows: int) -> tuple[str, list]:
    """("INSERT INTO table (a, b) VALUES (%s, %s), (%s, %s)", [field a, field b]): every
    concrete field but the primary key, `rows` rows (compared with the ORM's in
    tests/matches/test_write_batch.py)."""
    key = (connection.vendor, model, rows)
    found = _INSERT_STATEMENTS.get(key)
    if found is None:
        meta, quote = model._meta, connection.ops.quote_name
        fields = [f for f in meta.concrete_fields if not f.primary_key]
        for field in fields:
            if hasattr(field, "get_placeholder"):
                raise ValueError(f"{field} needs the ORM's own insert")
        columns = ", ".join(quote(field.column) for field in fields)
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        values = ", ".join([row] * rows)
        # names from the model's metadata, quoted; every value is a bound parameter
        text = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES {values}"  # nosec B608
        found = _INSERT_STATEMENTS[key] = (text, fields)
    return found


POSITION_FIELDS = [
    "version", "seq", "deciding_seat", "decision", "legal_ids", "status", "ranking",
    "winner_seat", "result", "result_reason", "finished", "decision_started",
    "decision_deadline", "updated",
]  # fmt: skip


SNAPSHOT_FIELDS = ["snapshot", "snapshot_version"]  # only when a snapshot is due
REQUEST_FIELDS = ["status", "code", "message", "applied_version"]

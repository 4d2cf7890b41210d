"""Several querysets' model objects from one round trip to PostgreSQL (one query text of
several statements), for the drain's hot path (matches/services/sql.py). Generic plumbing over
Django's compiler: it relies on `get_related_populators` and the compiler's
`select`/`klass_info` (Django 5.2), pinned by tests/matches/test_drain_queries.py and
test_worker_cost.py."""

import functools
import hashlib
import re
import weakref

from django.db import connection
from django.db.models.query import get_related_populators
from psycopg import pq
from psycopg.adapt import Transformer


class Raw:
    """A statement of fetch_together's text that is not a queryset (an INSERT ... RETURNING,
    say): its rows as the cursor gives them. `types`: its parameters' SQL types, for those
    PostgreSQL cannot infer (a SELECT list's)."""

    def __init__(self, sql: str, params: list, types: tuple = ()):
        self.sql, self.params, self.types = sql, params, types


# Each statement of fetch_together is prepared once per connection (PREPARE, then EXECUTE
# with its values): planning the drain's three statements took PostgreSQL ~0.9 ms of CPU
# on every drain, more than running them (bench/RESULTS.md, issue 16). A PREPARE lasts as
# long as its session, whatever becomes of the transaction it came in; the pool lends the
# same connections again and never DISCARDs them.
_PREPARED: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # connection -> names
_PLACEHOLDER = re.compile(r"%(%|s)")


@functools.cache
def _name(sql: str) -> str:
    return "kgk_" + hashlib.blake2b(sql.encode(), digest_size=10).hexdigest()


def _prepare(sql: str, types) -> str:
    """PREPARE of `sql`, its %s placeholders numbered ($1, $2, ...); a literal %% stays
    as it is (the client-side binding of the whole text turns it into %)."""
    numbers = iter(range(1, sql.count("%s") + 1))
    numbered = _PLACEHOLDER.sub(lambda m: "%%" if m[1] == "%" else f"${next(numbers)}", sql)
    declared = f"({', '.join(types)})" if types else ""
    return f"PREPARE {_name(sql)}{declared} AS {numbered}"


def execute_prepared(cursor, parts, begin=False, meanwhile=None) -> int:
    """Run `parts` ((sql, params, parameter types)) as ONE query text, each statement that can
    be prepared (a SELECT, INSERT, UPDATE or DELETE) prepared once per connection and run
    by EXECUTE; `begin`: a BEGIN before the statements; `meanwhile`: work of this thread's
    done while the text is out (`execute_while`). Returns how many empty results (the
    PREPAREs', the BEGIN's) come before the statements' own."""
    raw = cursor.cursor.connection
    known = _PREPARED.get(raw)
    if known is None:  # a new connection, or one whose last text failed: ask it
        cursor.execute("SELECT name FROM pg_prepared_statements WHERE name LIKE 'kgk\\_%%'")
        known = _PREPARED[raw] = {name for (name,) in cursor.fetchall()}
    if not parts:
        return 0
    heads, texts, params, names = [], [], [], set()
    for sql, some, types in parts:
        params += some
        if not _PREPARABLE.match(sql):
            texts.append(sql)
            continue
        name = _name(sql)
        if name not in known and name not in names:
            heads.append(_prepare(sql, types))
        names.add(name)
        texts.append(_execute(sql, len(some)))
    _PREPARED.pop(raw)  # until the text is through: which PREPAREs ran is unknown if it fails
    text = _bound(raw, ";\n".join([*heads, *(["BEGIN"] if begin else []), *texts]), params)
    if meanwhile is None:
        cursor.execute(text)
    else:
        execute_while(cursor, text, None, meanwhile)
    _PREPARED[raw] = known | names
    return len(heads) + begin


def _bound(raw, text: str, params: list) -> str:
    """`text` with each %s replaced by its parameter as psycopg's client-side binding writes
    it (the connection's own dumpers, `as_literal`) and each %% by %: what psycopg sends
    for `execute(text, params)`. psycopg parses a text of more than 50 parameters again on
    every execute (its cache takes shorter ones only): 363 µs of CPU against 108 µs here for
    a drain's 94-parameter text (bench/call_cost.py); the drain's texts come from a few
    templates, whose placeholders are %s alone."""
    literal, encoding = Transformer.from_context(raw).as_literal, raw.info.encoding
    return text % tuple("NULL" if p is None else literal(p).decode(encoding) for p in params)


def execute_while(cursor, sql, params, meanwhile) -> None:
    """`cursor.execute(sql, params)` (a Django cursor on PostgreSQL), `meanwhile()` called
    once the text is sent and before its results are read: the worker makes a move's push
    while PostgreSQL runs its writes and flushes the commit to disk, where it waited for
    them before (bench/RESULTS.md, issue 16). `meanwhile` must not use the database (the
    connection is busy: a query would fail) and must not raise. Through Django's own
    `execute`, so its execute wrappers and debug log see the text as any other."""
    raw = cursor.cursor
    cursor.cursor = _SendThenRead(raw, meanwhile)
    try:
        cursor.execute(sql, params)
    finally:
        cursor.cursor = raw


class _SendThenRead:
    """A psycopg cursor whose `execute` calls `meanwhile` between the send and the read. It
    drives the cursor's own generator (`_execute_gen`: psycopg's `execute` is that generator
    waited on) to its first wait for the server, which comes after the text is flushed."""

    def __init__(self, cursor, meanwhile):
        self._cursor, self._meanwhile = cursor, meanwhile

    def __getattr__(self, name):
        return getattr(self._cursor, name)

    def execute(self, sql, params=None):
        cursor = self._cursor
        connection_ = cursor.connection
        if not hasattr(cursor, "_execute_gen"):  # psycopg's own, not public: without it,
            cursor.execute(sql, params)  # the work waits for the results, as it did before
            self._meanwhile()
            return cursor
        steps = cursor._execute_gen(sql, params)
        with connection_.lock:
            try:
                first = next(steps)
            except StopIteration:  # through without a wait
                first = None
        self._meanwhile()
        if first is not None:
            with connection_.lock:
                connection_.wait(_resumed(first, steps))
        return cursor


def _resumed(first, steps):
    """`steps` with its first wait (`first`) already taken: what psycopg's `wait` drives."""
    state = first
    while True:
        ready = yield state
        try:
            state = steps.send(ready)
        except StopIteration as done:
            return done.value


_PREPARABLE = re.compile(r"\s*(SELECT|INSERT|UPDATE|DELETE)\b", re.IGNORECASE)


def _execute(sql: str, count: int) -> str:
    return (
        f"EXECUTE {_name(sql)}({', '.join(['%s'] * count)})" if count else f"EXECUTE {_name(sql)}"
    )


def fetch_together(*compiled) -> list[list]:
    """Each compiled queryset's model objects, as `list(queryset)` gives them, from ONE round
    trip to PostgreSQL: the statements go out as one query text and run one after the
    other, each with a snapshot of its own; psycopg's client-side binding (Django's
    default) sends several statements in one execute and hands their results one after the
    other (`nextset`). psycopg's pipeline mode did the same with more CPU in its
    bookkeeping (bench/RESULTS.md). As the first statement of an atomic block, the text
    also carries the block's BEGIN (`begins_here`), which psycopg would otherwise send
    alone first, a round trip of its own. `compiled`: (queryset, compiler, sql, params) of
    querysets of model objects (no values(), no prefetch_related), or a `Raw` statement
    (its rows as tuples)."""
    parts = [(c.sql, c.params, c.types) if isinstance(c, Raw) else (c[2], c[3], ())
             for c in compiled]  # fmt: skip
    begin = begins_here()
    results = []
    with connection.cursor() as cursor:
        skipped = execute_prepared(cursor, parts, begin=begin)
        for _skipped in range(skipped):
            cursor.nextset()  # past the PREPAREs' and the BEGIN's empty results
        for n, item in enumerate(compiled):
            if n and not cursor.nextset():
                raise RuntimeError("a statement of fetch_together returned no result")
            if isinstance(item, Raw):
                results.append(cursor.fetchall())
            else:
                queryset, compiler, _sql, _params = item
                results.append(_model_objects(queryset, compiler, cursor.fetchall()))
    return results


def begins_here() -> bool:
    """True when the caller's outermost atomic block has sent nothing yet: its transaction
    is then opened by a BEGIN at the head of this query text, and psycopg is told not to
    send its own (autocommit on; it stays on until the block ends, when Django sets it
    anyway: psycopg's commit and rollback still end the transaction the server holds, and
    refuse to change autocommit only while one is open, which the block's end has closed).
    Not in a nested block (a savepoint: the transaction was opened before) nor outside
    one (autocommit: nothing to open)."""
    if not connection.in_atomic_block or len(connection.atomic_blocks) != 1:
        return False
    raw = connection.connection
    if raw is None or raw.autocommit or raw.pgconn.transaction_status != pq.TransactionStatus.IDLE:
        return False
    raw.autocommit = True
    return True


class _Plan:
    """What turns one compiled queryset's rows into model objects: worked out once per
    compiler (the drain's compilers live as long as their thread, matches/services/sql.py),
    not on every drain (the converters and populators were ~8 % of a drain's CPU)."""

    def __init__(self, queryset, compiler):
        select, klass_info = compiler.select, compiler.klass_info
        self.db = queryset.db
        self.model = klass_info["model"]
        self.start = klass_info["select_fields"][0]
        self.end = klass_info["select_fields"][-1] + 1
        self.names = [column[0].target.attname for column in select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, select, queryset.db)
        expressions = [s[0] for s in select[: compiler.col_count]]
        if compiler.has_composite_fields(expressions):
            raise ValueError("fetch_together does not read composite fields")
        self.converters = compiler.get_converters(expressions)
        self.annotations = list(compiler.annotation_col_map.items())
        # (no reference back to the compiler: it is this plan's weak key)


_PLANS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _plan(queryset, compiler) -> _Plan:
    plan = _PLANS.get(compiler)
    if plan is None:
        plan = _PLANS[compiler] = _Plan(queryset, compiler)
    return plan


def _model_objects(queryset, compiler, rows) -> list:
    """Django's ModelIterable over rows already fetched (select_related and annotations)."""
    plan = _plan(queryset, compiler)
    if plan.converters:
        rows = compiler.apply_converters(rows, plan.converters)
    start, end, names, db, from_db = plan.start, plan.end, plan.names, plan.db, plan.model.from_db
    objects = []
    for row in rows:
        obj = from_db(db, names, row[start:end])
        for populator in plan.populators:
            populator.populate(row, obj)
        for name, position in plan.annotations:
            setattr(obj, name, row[position])
        objects.append(obj)
    return objects

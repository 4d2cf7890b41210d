"""Several querysets' model objects from one round trip to PostgreSQL (one query text of
several statements), for the drain's hot path (matches/services.py). Generic plumbing over
Django's compiler: it relies on `get_related_populators` and the compiler's
`select`/`klass_info` (Django 5.2), pinned by tests/matches/test_drain_queries.py and
test_worker_cost.py."""

import weakref

from django.db import connection
from django.db.models.query import get_related_populators
from psycopg import pq


class Raw:
    """A statement of fetch_together's text that is not a queryset (an INSERT ... RETURNING,
    say): its rows as the cursor gives them."""

    def __init__(self, sql: str, params: list):
        self.sql, self.params = sql, params


def fetch_together(*compiled) -> list[list]:
    """Each compiled queryset's model objects, as `list(queryset)` gives them, from ONE round
    trip to PostgreSQL: the statements go out as one query text and run one after the
    other, each with a snapshot of its own; psycopg's client-side binding (Django's
    default) sends several statements in one execute and hands their results one after the
    other (`nextset`). psycopg's pipeline mode did the same with more CPU in its
    bookkeeping (bench/RESULTS.md). As the first statement of an atomic block, the text
    also carries the block's BEGIN (`_begins_here`), which psycopg would otherwise send
    alone first, a round trip of its own. `compiled`: (queryset, compiler, sql, params) of
    querysets of model objects (no values(), no prefetch_related), or a `Raw` statement
    (its rows as tuples)."""
    parts = [(c.sql, c.params) if isinstance(c, Raw) else (c[2], c[3]) for c in compiled]
    texts = [sql_text for sql_text, _params in parts]
    params = [p for _sql, some in parts for p in some]
    begin = _begins_here()
    results = []
    with connection.cursor() as cursor:
        cursor.execute(";\n".join(["BEGIN", *texts] if begin else texts), params)
        if begin:
            cursor.nextset()  # past the BEGIN's empty result
        for n, item in enumerate(compiled):
            if n and not cursor.nextset():
                raise RuntimeError("a statement of fetch_together returned no result")
            if isinstance(item, Raw):
                results.append(cursor.fetchall())
            else:
                queryset, compiler, _sql, _params = item
                results.append(_model_objects(queryset, compiler, cursor.fetchall()))
    return results


def _begins_here() -> bool:
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
    compiler (the drain's compilers live as long as their thread, matches/services.py),
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

"""Several querysets' model objects from one round trip to PostgreSQL (psycopg's pipeline
mode), for the drain's hot path (matches/services.py). Generic plumbing over Django's
compiler: it relies on `get_related_populators` and the compiler's `select`/`klass_info`
(Django 5.2), pinned by tests/matches/test_drain_queries.py and test_worker_cost.py."""

from django.db import connection
from django.db.models.query import get_related_populators


def fetch_together(*compiled) -> list[list]:
    """Each compiled queryset's model objects, as `list(queryset)` gives them, from ONE round
    trip to PostgreSQL (after psycopg's BEGIN, which it sends and waits for first): the
    statements go out together in psycopg's pipeline mode and run one after the other. `compiled`:
    (queryset, compiler, sql, params) of querysets of model objects (no values(), no
    prefetch_related)."""
    connection.ensure_connection()
    sent = []
    with connection.connection.pipeline():
        for queryset, compiler, sql_text, params in compiled:
            cursor = connection.cursor()
            cursor.execute(sql_text, params)
            sent.append((queryset, compiler, cursor))
        results = []
        for queryset, compiler, cursor in sent:
            with cursor:
                results.append(_model_objects(queryset, compiler, cursor.fetchall()))
    return results


def _model_objects(queryset, compiler, rows) -> list:
    """Django's ModelIterable over rows already fetched (select_related and annotations)."""
    select, klass_info = compiler.select, compiler.klass_info
    start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
    names = [column[0].target.attname for column in select[start:end]]
    populators = get_related_populators(klass_info, select, queryset.db)
    objects = []
    for row in compiler.results_iter([rows]):
        obj = klass_info["model"].from_db(queryset.db, names, row[start:end])
        for populator in populators:
            populator.populate(row, obj)
        for name, position in compiler.annotation_col_map.items():
            setattr(obj, name, row[position])
        objects.append(obj)
    return objects

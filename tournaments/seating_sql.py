"""The SQL that seats a Swiss draft on PostgreSQL: one INSERT for every table of a round
(bench/RESULTS.md, issue 14). Elsewhere rounds.py seats with `bulk_create`."""

from __future__ import annotations

from django.db import connection

from .models import Round, TableSet, Tournament

_TABLE_FIELDS = ("table", "player_a", "player_b", "games_a", "games_b", "status")
"""The columns that differ between a draft's matches, in the order of `tables`' tuples."""


def insert_tables(t: Tournament, rnd: Round, tables: list[tuple]):
    """PostgreSQL: the draft's matches in one INSERT ... SELECT FROM unnest(arrays), one
    array per column of `_TABLE_FIELDS`. At 4,096 players this took a fifth of
    `bulk_create`'s time (bench/RESULTS.md, issue 14): bulk_create prepares every field of
    every instance in Python and sends some 30,000 parameters; this sends six arrays.
    Every other column gets the value `TableSet(...)` would save (its default, `auto_now`),
    read from the model, so a field added later is filled as bulk_create would fill it
    (tests/tournaments/test_app_services.py compares the rows)."""
    template = TableSet(tournament=t, round=rnd, table=0, player_a_id=0)
    quote = connection.ops.quote_name
    columns, select, params = [], [], []
    for f in TableSet._meta.concrete_fields:
        if f.primary_key or f.name in _TABLE_FIELDS:
            continue
        columns.append(quote(f.column))
        select.append(f"CAST(%s AS {f.cast_db_type(connection)})")
        params.append(f.get_db_prep_save(f.pre_save(template, add=True), connection))
    arrays = []
    for k, name in enumerate(_TABLE_FIELDS):
        f = TableSet._meta.get_field(name)
        columns.append(quote(f.column))
        select.append(f"x.c{k}")
        arrays.append(f"CAST(%s AS {f.cast_db_type(connection)}[])")
    params.extend(_array_text(column) for column in zip(*tables, strict=True))
    names = ", ".join(f"c{k}" for k in range(len(_TABLE_FIELDS)))
    # every name and type in this text comes from the model's metadata; the values are
    # parameters
    table = quote(TableSet._meta.db_table)
    into, values, unnest = ", ".join(columns), ", ".join(select), ", ".join(arrays)
    sql = f"INSERT INTO {table} ({into}) SELECT {values} FROM unnest({unnest}) AS x({names})"  # nosec B608
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _array_text(values) -> str:
    """A PostgreSQL array literal ('{1,2,NULL}', strings double-quoted) of ints, strings
    and Nones, sent as one text parameter: psycopg's client-side binding dumps a Python
    list element by element in Python (bench/RESULTS.md, issue 14)."""
    if set(map(type, values)) <= {int}:
        return "{" + ",".join(map(str, values)) + "}"
    out = []
    for v in values:
        if v is None:
            out.append("NULL")
        elif isinstance(v, bool):
            out.append("true" if v else "false")
        elif isinstance(v, int):
            out.append(str(v))
        else:
            out.append('"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"')
    return "{" + ",".join(out) + "}"

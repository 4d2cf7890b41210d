"""`kgk_expect(ok)`, a PostgreSQL function that fails its statement, with SQLSTATE KGK01,
when `ok` is false: a drain that sends its writes in the same text as the match row's lock
puts it between the two, so the writes run only on the row it computed them from
(matches/services/draining.py, `_drain_held_move`). Plain SQL cannot fail a statement on a
condition; an error skips the rest of the text, and the transaction rolls back. Nothing
on SQLite (the drain's one-text path is PostgreSQL's only)."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION kgk_expect(ok boolean) RETURNS boolean
LANGUAGE plpgsql AS $body$
BEGIN
    IF ok IS NOT TRUE THEN
        RAISE EXCEPTION 'the match is not at the position the drain computed from'
            USING ERRCODE = 'KGK01';
    END IF;
    RETURN TRUE;
END
$body$
"""
DROP = "DROP FUNCTION IF EXISTS kgk_expect(boolean)"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0006_match_snapshot"),
    ]

    operations = [migrations.RunPython(create, drop, elidable=False)]

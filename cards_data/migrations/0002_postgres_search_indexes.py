"""PostgreSQL only: trigram GIN indexes on the folded search columns.

The search compiles to `search_name LIKE %word%` on folded text on every backend, so
SQLite and PostgreSQL give the same answers; on PostgreSQL pg_trgm makes those LIKEs
use an index instead of a scan (bench/RESULTS.md).
"""

from django.db import migrations

COLUMNS = ("search_name", "search_text")


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for column in COLUMNS:
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS cards_card_{column}_trgm "
            f"ON cards_data_card USING gin ({column} gin_trgm_ops)"
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for column in COLUMNS:
        schema_editor.execute(f"DROP INDEX IF EXISTS cards_card_{column}_trgm")


class Migration(migrations.Migration):
    dependencies = [("cards_data", "0001_initial")]
    operations = [migrations.RunPython(create, drop)]

"""The state column becomes a snapshot (issue 16): the field is renamed `snapshot`, its
column keeps the name "state" (no table rewrite), and `snapshot_version` says which
version it is. Every existing row holds the dump of its current version, so that is its
snapshot's version."""

from django.db import migrations, models
from django.db.models import F


def snapshots_are_current(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    Match.objects.using(schema_editor.connection.alias).update(snapshot_version=F("version"))


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0005_action_request_explanation"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RenameField(model_name="match", old_name="state", new_name="snapshot"),
                migrations.AlterField(
                    model_name="match",
                    name="snapshot",
                    field=models.TextField(blank=True, db_column="state"),
                ),
            ],
            database_operations=[],  # the column is still "state"
        ),
        migrations.AddField(
            model_name="match",
            name="snapshot_version",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(snapshots_are_current, migrations.RunPython.noop),
    ]

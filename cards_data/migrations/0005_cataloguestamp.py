"""CatalogueStamp: when the catalogue last changed (issue 40), one row, made here so that a
read never finds it missing; a catalogue loaded before this migration counts as changed now."""

import secrets

from django.db import migrations, models
from django.utils import timezone


def make_stamp(apps, schema_editor):
    stamp = apps.get_model("cards_data", "CatalogueStamp")
    stamp.objects.update_or_create(
        pk=1, defaults={"changed": timezone.now(), "token": secrets.token_hex(16)}
    )


class Migration(migrations.Migration):
    dependencies = [
        ("cards_data", "0004_card_definition"),
    ]

    operations = [
        migrations.CreateModel(
            name="CatalogueStamp",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("changed", models.DateTimeField()),
                ("token", models.CharField(max_length=32)),
            ],
        ),
        migrations.RunPython(make_stamp, migrations.RunPython.noop),
    ]

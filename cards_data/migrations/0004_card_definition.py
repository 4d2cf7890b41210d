"""Card.definition: the set file's entry as the engine reads it (issue 34).

Rows loaded before this migration get theirs from the set files on disk, so a site that
migrates without reloading its cards never sets up a game with an empty definition."""

import json
from pathlib import Path

from django.db import migrations, models

SETS_DIR = Path(__file__).resolve().parent.parent / "sets"
# As cards_data.definitions at the time of writing (a migration keeps its own copy).
NOT_DEFINITION = {"flavor_hu", "flavor_en", "notes", "edition", "_file"}


def fill_definitions(apps, schema_editor):
    Card = apps.get_model("cards_data", "Card")
    entries = {}
    for path in sorted(SETS_DIR.glob("*/*.json")):
        for card in json.loads(path.read_text(encoding="utf-8"))["cards"]:
            entries[card["code"]] = {k: v for k, v in card.items() if k not in NOT_DEFINITION}
    for card in Card.objects.filter(code__in=list(entries)):
        card.definition = entries[card.code]
        card.save(update_fields=["definition"])


class Migration(migrations.Migration):
    dependencies = [
        ("cards_data", "0003_search_indexes_clan_upgrade_limit"),
    ]

    operations = [
        migrations.AddField(
            model_name="card",
            name="definition",
            field=models.JSONField(blank=True, default=dict, editable=False),
        ),
        migrations.RunPython(fill_definitions, migrations.RunPython.noop),
    ]

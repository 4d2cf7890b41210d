# The tournament's set is TableSet (issue 36): three classes were called Match. The table is
# renamed with its rows; the pages keep the word "match" (verbose_name).

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_match_indexes_where_used"),
    ]

    operations = [
        migrations.RenameModel(old_name="Match", new_name="TableSet"),
        migrations.AlterModelOptions(
            name="tableset",
            options={
                "ordering": ["tournament", "round__number", "table"],
                "verbose_name": "match",
                "verbose_name_plural": "matches",
            },
        ),
    ]

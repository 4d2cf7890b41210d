"""The first season, so that rated games have a season from the first day."""

import datetime

from django.db import migrations

FIRST_SEASON = "2026"


def open_first_season(apps, schema_editor):
    Season = apps.get_model("ratings", "Season")
    if not Season.objects.exists():
        Season.objects.create(name=FIRST_SEASON, start=datetime.date(2026, 1, 1), end=None)


def remove_first_season(apps, schema_editor):
    apps.get_model("ratings", "Season").objects.filter(name=FIRST_SEASON).delete()


class Migration(migrations.Migration):
    dependencies = [("ratings", "0001_seasons_ratings_history")]

    operations = [migrations.RunPython(open_first_season, remove_first_season)]

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("matches", "0007_expect_function")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="time_control",
            field=models.CharField(blank=True, default="", max_length=16),
        ),
    ]

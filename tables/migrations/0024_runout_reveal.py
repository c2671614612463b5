from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0023_sitting_out"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="runout_revealed",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
    ]

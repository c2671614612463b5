from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0020_seat_chips_to_add"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="runout_revealed",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
    ]

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0020_seat_chips_to_add"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="has_missed_big_blind",
            field=models.BooleanField(default=False),
        ),
    ]

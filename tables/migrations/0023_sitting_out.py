from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0022_host_word"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="has_missed_big_blind",
            field=models.BooleanField(default=False),
        ),
    ]

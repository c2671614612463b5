"""Friends' tables are reachable by their link only unless the host lists them in
the lobby. Every table opened before this was opened under a form that said "share
its link", so each existing table starts unlisted, as its host expected
(docs/table.md, "Listed or by link only"); its host may list it from the host panel.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0020_seat_chips_to_add"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="is_listed",
            field=models.BooleanField(default=False),
        ),
    ]

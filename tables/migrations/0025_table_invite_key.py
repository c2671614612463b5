"""Each table gets the secret its link carries (``Table.invite_key``), so an unlisted
friends' table opens only to its players and to whoever brings the key: an id walked
from /tables/1/ up reveals nothing (docs/table.md, "Listed or by link only").

Existing tables get a key each: the column is added empty, filled one row at a time
with a fresh key, then made unique and required. A link shared before this carries
no key, so it admits only the table's players; the host shares the new link.
"""

from typing import Any

from django.db import migrations, models

import tables.models.table


def give_each_table_a_key(apps: Any, schema_editor: Any) -> None:
    Table = apps.get_model("tables", "Table")
    for table in Table.objects.filter(invite_key__isnull=True).only("pk").iterator():
        Table.objects.filter(pk=table.pk).update(invite_key=tables.models.table.new_invite_key())


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0024_runout_reveal"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="invite_key",
            field=models.CharField(max_length=32, null=True),
        ),
        migrations.RunPython(give_each_table_a_key, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="table",
            name="invite_key",
            field=models.CharField(
                default=tables.models.table.new_invite_key, max_length=32, unique=True
            ),
        ),
    ]

"""Presence leases are renewed by their holder, the server process with the socket
open, instead of one by one (tables/services/presence.py).

Leases taken before this migration get one holder of their own, as old as the
oldest of them: nothing renews it, so the sweep finds it stale within a lease
time and settles those seats as it always did (a player nobody's socket holds
any longer shows away since that holder's time).
"""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Min

HOLDER_OF_OLDER_LEASES = "leases taken before holders"


def give_older_leases_a_holder(apps, schema_editor):
    leases = apps.get_model("tables", "PresenceLease").objects
    oldest = leases.aggregate(oldest=Min("renewed_at"))["oldest"]
    if oldest is None:
        return
    holder = apps.get_model("tables", "PresenceHolder").objects.create(
        name=HOLDER_OF_OLDER_LEASES, renewed_at=oldest
    )
    leases.update(holder=holder)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0028_players_cut"),
    ]

    operations = [
        migrations.CreateModel(
            name="PresenceHolder",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=200, unique=True)),
                ("renewed_at", models.DateTimeField(db_index=True)),
            ],
        ),
        migrations.AddField(
            model_name="presencelease",
            name="holder",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="leases",
                to="tables.presenceholder",
            ),
        ),
        migrations.RunPython(give_older_leases_a_holder, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="presencelease",
            name="holder",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="leases",
                to="tables.presenceholder",
            ),
        ),
        migrations.RemoveField(
            model_name="presencelease",
            name="renewed_at",
        ),
    ]

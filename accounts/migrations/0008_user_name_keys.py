"""Each member's look-alike name keys (accounts/name_keys.py), filled for the members
already there before the display name's key becomes unique: of display names that
look alike, the earliest member's keeps its key and the later ones none, so no
existing name is changed or refused (docs/accounts.md, "Names")."""

from typing import Any

from django.db import migrations, models


def fill_keys(apps: Any, schema_editor: Any) -> None:
    from accounts.name_keys import fill_name_keys

    fill_name_keys(apps.get_model("accounts", "User").objects)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_points_for_rebuys_add_ons_and_bounties"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="display_name_key",
            field=models.TextField(blank=True, default="", editable=False),
        ),
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.TextField(blank=True, db_index=True, default="", editable=False),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                condition=models.Q(("display_name_key", ""), _negated=True),
                fields=("display_name_key",),
                name="accounts_user_display_name_key_unique",
                violation_error_message="Another member already goes by that name.",
            ),
        ),
    ]

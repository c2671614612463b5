"""Where a member's address stands: the address a link confirmed, and when.

Members already there get neither: their addresses count as unconfirmed until they
follow a link (the profile's "Send the link again"), as docs/accounts.md
("Confirming an address") says."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0008_user_name_keys"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="confirmed_email",
            field=models.EmailField(blank=True, default="", editable=False, max_length=254),
        ),
        migrations.AddField(
            model_name="user",
            name="email_confirmed_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
    ]

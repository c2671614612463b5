"""The list of a member's sessions on their profile (accounts/member_sessions.py).

The log-ins already open get a row each, with no browser, address or times known,
so that "Log out everywhere else" reaches them too; a session's next request fills
them in. Expired sessions, and those of guests, get none.
"""

from typing import Any

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def list_open_sessions(apps: Any, schema_editor: Any) -> None:
    from django.contrib.auth import SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.utils import timezone

    session_model = apps.get_model("sessions", "Session")
    member_session_model = apps.get_model("accounts", "MemberSession")
    members = set(
        apps.get_model("accounts", "User")
        .objects.filter(is_guest=False)
        .values_list("pk", flat=True)
    )
    store = SessionStore()
    rows = []
    for session in session_model.objects.filter(expire_date__gt=timezone.now()).iterator():
        user_id = str(store.decode(session.session_data).get(SESSION_KEY, ""))
        if user_id.isdigit() and int(user_id) in members:
            rows.append(member_session_model(session_id=session.pk, user_id=int(user_id)))
    member_session_model.objects.bulk_create(rows, batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0009_user_confirmed_email"),
        ("sessions", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="MemberSession",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("user_agent", models.CharField(blank=True, max_length=400)),
                ("ip", models.GenericIPAddressField(blank=True, null=True)),
                ("created_at", models.DateTimeField(blank=True, null=True)),
                ("last_seen_at", models.DateTimeField(blank=True, null=True)),
                (
                    "session",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="member_session",
                        to="sessions.session",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="member_sessions",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": [
                    models.OrderBy(models.F("last_seen_at"), descending=True, nulls_last=True),
                    "-pk",
                ],
            },
        ),
        migrations.RunPython(list_open_sessions, migrations.RunPython.noop),
    ]

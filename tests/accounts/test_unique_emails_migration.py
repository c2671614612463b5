"""A database where members share addresses migrates to unique ones without losing an
account: the earliest member keeps the address, the later ones are asked for a new one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.support.migrations import migrate, scratch_database

BEFORE = [("accounts", "0008_user_name_keys")]
AFTER = [("accounts", "0012_unique_emails")]


@pytest.mark.django_db(transaction=True)
def test_shared_addresses_stay_with_the_earliest_member_and_no_account_is_lost() -> None:
    with scratch_database() as database:
        old = migrate(database, BEFORE)
        users = old.get_model("accounts", "User")
        start = timezone.now() - timedelta(days=30)

        def member(name: str, email: str, days: int) -> int:
            user = users.objects.create(
                username=name, email=email, date_joined=start + timedelta(days=days)
            )
            return int(user.pk)

        # Made out of order: who joined first decides, not who has the lower id.
        later = member("later", "Shared@Example.com", 5)
        first = member("first", "shared@example.com", 1)
        latest = member("latest", "SHARED@example.com", 9)
        alone = member("alone", "alone@example.com", 2)
        guests = [member(f"guest-{n}", "", 3) for n in range(2)]

        new = migrate(database, AFTER).get_model("accounts", "User")
        rows = {u.pk: (u.email, u.must_replace_email) for u in new.objects.all()}
        assert len(rows) == 6, "every account is still there"
        assert rows[first] == ("shared@example.com", False)
        assert rows[later] == ("", True)
        assert rows[latest] == ("", True)
        assert rows[alone] == ("alone@example.com", False)
        assert all(rows[guest] == ("", False) for guest in guests)

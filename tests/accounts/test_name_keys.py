"""Names a reader takes for one another are one name (accounts/name_keys.py): each
member's names carry a look-alike key, kept with them; members whose display names
looked alike before keys were kept keep their names (the data migration)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import User
from accounts.name_keys import fill_name_keys, keys_to_check, name_key
from accounts.names import check_display_name

pytestmark = pytest.mark.django_db


def test_one_key_for_the_names_a_reader_takes_for_one_another():
    same = ["admin", "ADMIN", "\u0430dmin", "\uff41\uff44\uff4d\uff49\uff4e"]  # Cyrillic, fullwidth
    assert {name_key(name) for name in same} == {name_key("admin")}
    assert name_key("bob") != name_key("rob")
    assert name_key("alice") in keys_to_check("aIice")  # a capital I for the l


def test_a_members_keys_follow_their_names(make_user):
    user = make_user("dave", display_name="Dave")
    assert (user.username_key, user.display_name_key) == (name_key("dave"), name_key("Dave"))
    user.display_name = "Dee"
    user.save(update_fields=["display_name"])
    user.refresh_from_db()
    assert user.display_name_key == name_key("Dee")
    user.display_name = ""
    user.save()
    assert User.objects.get(pk=user.pk).display_name_key == ""


def test_look_alike_display_names_from_before_keys_stay_and_the_earliest_holds_the_key():
    User.objects.bulk_create(  # rows as they were before keys were kept
        [
            User(username="dave", display_name="Dave"),
            User(username="erin", display_name="D\u0430ve"),  # a Cyrillic a
            User(username="frank"),
        ]
    )
    with transaction.atomic():
        assert fill_name_keys(User.objects) == 3

    dave, erin, frank = (User.objects.get(username=name) for name in ("dave", "erin", "frank"))
    assert (dave.display_name_key, erin.display_name_key) == (name_key("Dave"), "")
    assert (erin.display_name, frank.username_key, frank.display_name_key) == (
        "D\u0430ve",
        "frank",
        "",
    )
    erin.set_password("a-long-enough-passphrase")
    erin.save()  # any save keeps her name as it is, without a key
    assert User.objects.get(pk=erin.pk).display_name_key == ""
    with pytest.raises(ValidationError):
        check_display_name("DAV\u0395", None)  # a Greek E: dave's, for anyone new
    erin.display_name = "Erin"
    erin.save()
    assert User.objects.get(pk=erin.pk).display_name_key == name_key("Erin")

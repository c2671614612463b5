"""ADMIN_REQUIRES_SECOND_FACTOR: the admin site only for staff who passed a second factor."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from tests.support import PASSWORD
from tests.support.second_factor import code_from_secret, set_up_an_app

pytestmark = pytest.mark.django_db

ADMIN = reverse("admin:index")
USERS = reverse("admin:accounts_user_changelist")
START = "2030-01-01 12:00:00"


def text_of(response: Any) -> str:
    return " ".join(response.content.decode().split())


@pytest.fixture
def required(settings: Any) -> None:
    settings.ADMIN_REQUIRES_SECOND_FACTOR = True


def test_staff_without_a_second_factor_are_sent_to_set_one_up(client, make_user, required):
    client.force_login(make_user("alice", is_staff=True, is_superuser=True))
    response = client.get(USERS)
    assert response.status_code == 302
    assert response.url == reverse("accounts:profile") + "#second-factor"
    page = client.get(response.url).content.decode()
    assert "The admin site needs a second factor" in page


def test_staff_logged_in_without_the_code_are_refused_with_a_clear_page(
    client, make_user, required, time_machine
):
    time_machine.move_to(START, tick=False)
    alice = make_user("alice", is_staff=True, is_superuser=True)
    client.force_login(alice)
    set_up_an_app(client)
    stale = Client()
    stale.force_login(alice)  # a log-in that never gave a code
    response = stale.get(USERS)
    assert response.status_code == 403
    assert "The admin site asks for a second factor, and you logged in without" in text_of(response)
    assert client.get(USERS).status_code == 200  # the session that set it up passed it
    page = response.content.decode()
    assert 'name="next" value="/accounts/login/?next=/admin/"' in page
    response = stale.post(reverse("accounts:logout"), {"next": "/accounts/login/?next=/admin/"})
    assert response.url == "/accounts/login/?next=/admin/"


def test_staff_who_logged_in_with_the_code_open_the_admin(
    client, make_user, required, time_machine
):
    time_machine.move_to(START, tick=False)
    alice = make_user("alice", is_staff=True, is_superuser=True)
    client.force_login(alice)
    secret, _ = set_up_an_app(client)
    client.logout()

    response = client.get(USERS)  # the admin's log-in is the site's, with its second step
    response = client.get(response.url, follow=True)
    assert response.redirect_chain[-1][0].startswith(reverse("accounts:login") + "?next=")
    response = client.post(
        response.redirect_chain[-1][0],
        {"username": "alice", "password": PASSWORD, "next": USERS},
    )
    assert response.url == reverse("accounts:login_code")
    assert client.get(USERS).status_code == 302, "not in before the code"
    time_machine.shift(30)
    response = client.post(reverse("accounts:login_code"), {"code": code_from_secret(secret)})
    assert response.url == USERS
    assert client.get(USERS).status_code == 200


def test_with_the_setting_off_staff_open_the_admin_with_a_password_alone(client, make_user):
    client.force_login(make_user("alice", is_staff=True, is_superuser=True))
    assert client.get(USERS).status_code == 200


def test_a_member_who_is_not_staff_is_told_the_admin_is_not_for_them(client, make_user, required):
    client.force_login(make_user("bob"))
    response = client.get(ADMIN, follow=True)
    assert response.status_code == 403
    assert "this account has no access to the admin site" in text_of(response)


def test_the_admin_lists_a_members_devices_but_never_their_secret_or_codes(
    client, make_user, time_machine
):
    time_machine.move_to(START, tick=False)
    bob = make_user("bob")
    member = Client()
    member.force_login(bob)
    secret, codes = set_up_an_app(member)
    client.force_login(make_user("alice", is_staff=True, is_superuser=True))
    app = TOTPDevice.objects.get(user=bob)
    recovery = StaticDevice.objects.get(user=bob)
    pages = [
        client.get(reverse("admin:otp_totp_totpdevice_changelist")),
        client.get(reverse("admin:otp_totp_totpdevice_change", args=[app.pk])),
        client.get(reverse("admin:otp_static_staticdevice_change", args=[recovery.pk])),
    ]
    for page in pages:
        assert page.status_code == 200
        text = page.content.decode()
        assert app.key not in text and secret.replace(" ", "") not in text
        assert not any(code in text for code in codes)

"""A second factor: an authenticator app set up from the profile, asked for after the
password at log-in, recovery codes that work once, throttled like the password."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from tests.support import PASSWORD
from tests.support.second_factor import code_from_secret, set_up_an_app, textarea

pytestmark = pytest.mark.django_db

LOGIN = reverse("accounts:login")
CODE = reverse("accounts:login_code")
PROFILE = reverse("accounts:profile")
START = "2030-01-01 12:00:00"
BLOCKED = "Too many failed log-in attempts. Try again in 5 minutes."
WRONG = "That code is not right, or was used already."


@pytest.fixture
def alice(client: Client, make_user: Any, time_machine: Any) -> tuple[Any, str, list[str]]:
    """alice, staff, with an app set up at START; nobody logged in afterwards."""
    time_machine.move_to(START, tick=False)
    user = make_user("alice", is_staff=True)
    client.force_login(user)
    secret, codes = set_up_an_app(client)
    client.logout()
    return user, secret, codes


def password_step(client: Client, next_url: str = "", ip: str = "10.0.0.1") -> Any:
    data = {"username": "alice", "password": PASSWORD, "next": next_url}
    return client.post(LOGIN, data, REMOTE_ADDR=ip)


def is_logged_in(client: Client) -> bool:
    return SESSION_KEY in client.session


def unescaped(response: Any) -> str:
    return unescape(response.content.decode())


def test_setting_up_shows_a_qr_code_and_the_secret_then_asks_for_a_code(client, make_user):
    client.force_login(make_user("alice", is_staff=True))
    assert "Set up an authenticator app" in client.get(PROFILE).content.decode()
    client.post(reverse("accounts:second_factor_start"))
    page = client.get(reverse("accounts:second_factor_setup")).content.decode()
    assert "<svg" in page and 'class="segno"' in page  # the QR code, drawn by the server
    assert "style=" not in page and "<script>" not in page  # the site's CSP allows neither
    secret = textarea(page, "data-totp-secret").replace(" ", "")
    assert len(secret) == 32
    assert f"otpauth://totp/Felt%3Aalice?secret={secret}" in page.replace("&amp;", "&")

    wrong = client.post(reverse("accounts:second_factor_setup"), {"code": "123456"})
    assert "That code does not match." in wrong.content.decode()
    assert not TOTPDevice.objects.filter(confirmed=True).exists()

    right = client.post(reverse("accounts:second_factor_setup"), {"code": code_from_secret(secret)})
    codes = textarea(right.content.decode(), "data-recovery-codes").split()
    assert len(codes) == 10 and len(set(codes)) == 10
    assert "shown only this" in right.content.decode()
    profile = client.get(PROFILE).content.decode()
    assert "data-second-factor-on" in profile and "10 recovery codes left" in profile
    assert "data-recovery-codes" not in profile, "the codes are shown once"


def test_log_in_asks_for_the_code_after_the_password_and_lets_in_with_it(
    client, alice, time_machine
):
    _, secret, _ = alice
    response = password_step(client, next_url="/hands/")
    assert response.url == CODE
    assert not is_logged_in(client), "the password alone does not log in"
    assert "Your account also asks for a code" in client.get(CODE).content.decode()

    time_machine.shift(30)  # the next code from the app: the one used to set up is spent
    response = client.post(CODE, {"code": code_from_secret(secret)})
    assert response.status_code == 302 and response.url == "/hands/"
    assert is_logged_in(client)


def test_a_wrong_code_is_refused_and_logs_nobody_in(client, alice, time_machine):
    _, secret, _ = alice
    password_step(client)
    time_machine.shift(30)
    right = code_from_secret(secret)
    wrong = f"{(int(right) + 1) % 1_000_000:06d}"
    response = client.post(CODE, {"code": wrong})
    assert WRONG in unescaped(response)
    assert not is_logged_in(client)


def test_a_code_works_once(client, alice, time_machine):
    _, secret, _ = alice
    time_machine.shift(30)
    password_step(client)
    code = code_from_secret(secret)
    assert client.post(CODE, {"code": code}).status_code == 302
    other = Client()
    other.post(LOGIN, {"username": "alice", "password": PASSWORD})
    response = other.post(CODE, {"code": code})
    assert WRONG in unescaped(response)
    assert not is_logged_in(other)


def test_a_recovery_code_logs_in_once_and_never_again(client, alice):
    user, _, codes = alice
    password_step(client)
    response = client.post(CODE, {"code": codes[0].upper()}, follow=True)
    assert is_logged_in(client)
    assert "You used a recovery code: 9 left." in unescaped(response)
    assert StaticToken.objects.filter(device__user=user).count() == 9

    client.logout()
    password_step(client)
    response = client.post(CODE, {"code": codes[0]})
    assert WRONG in unescaped(response)
    assert not is_logged_in(client)


def test_the_code_step_is_throttled_like_the_password_and_a_right_password_does_not_reset_it(
    client, alice, time_machine
):
    _, secret, _ = alice
    for _ in range(3):
        password_step(client)
        client.post(CODE, {"code": "000000"})
    password_step(client)  # the right password again: the codes' failures stay counted
    client.post(CODE, {"code": "000001"})
    response = client.post(CODE, {"code": "000002"})
    assert BLOCKED in unescaped(response)

    time_machine.shift(60)  # a right code now: still refused while the block lasts
    response = client.post(CODE, {"code": code_from_secret(secret)})
    assert "Too many failed log-in attempts. Try again in 4 minutes." in unescaped(response)
    assert not is_logged_in(client)

    time_machine.shift(301)
    password_step(client)
    response = client.post(CODE, {"code": code_from_secret(secret)})
    assert response.status_code == 302 and is_logged_in(client)


def test_after_a_wrong_code_the_app_waits_a_moment(client, alice, time_machine):
    _, secret, _ = alice
    time_machine.shift(30)
    password_step(client)
    client.post(CODE, {"code": "000000"})
    response = client.post(CODE, {"code": code_from_secret(secret)})
    assert "After a wrong code, wait 1 second before the next try." in unescaped(response)
    time_machine.shift(2)
    assert client.post(CODE, {"code": code_from_secret(secret)}).status_code == 302


def test_the_code_page_without_the_password_step_or_too_late_sends_back_to_log_in(
    client, alice, time_machine
):
    _, secret, _ = alice
    assert client.get(CODE).url == LOGIN
    password_step(client)
    time_machine.shift(301)
    response = client.post(CODE, {"code": code_from_secret(secret)})
    assert response.url == LOGIN
    assert not is_logged_in(client)


def test_a_member_without_a_second_factor_logs_in_with_the_password_alone(client, make_user):
    make_user("bob")
    response = client.post(LOGIN, {"username": "bob", "password": PASSWORD})
    assert response.url == reverse("lobby") and is_logged_in(client)


def test_removing_it_takes_the_password_and_a_code(client, alice, time_machine):
    user, secret, codes = alice
    client.force_login(user)
    remove = reverse("accounts:second_factor_remove")
    time_machine.shift(30)
    response = client.post(remove, {"password": "guess", "code": code_from_secret(secret)})
    assert "That is not your password." in unescaped(response)
    response = client.post(remove, {"password": PASSWORD, "code": "000000"})
    assert WRONG in unescaped(response)
    assert TOTPDevice.objects.filter(user=user).exists()

    time_machine.shift(30)
    response = client.post(remove, {"password": PASSWORD, "code": codes[3]}, follow=True)
    assert "Your second factor was removed." in unescaped(response)
    assert not TOTPDevice.objects.filter(user=user).exists()
    assert not StaticToken.objects.filter(device__user=user).exists()
    client.logout()
    assert password_step(client).url == reverse("lobby")  # the password alone again


def test_a_member_who_is_not_staff_may_set_one_up_too(client, make_user, time_machine):
    time_machine.move_to(START, tick=False)
    client.force_login(make_user("bob"))
    secret, codes = set_up_an_app(client)
    assert len(codes) == 10
    client.logout()
    client.post(LOGIN, {"username": "bob", "password": PASSWORD})
    time_machine.shift(30)
    assert client.post(CODE, {"code": code_from_secret(secret)}).status_code == 302


def test_a_second_factor_is_not_replaced_without_what_removing_it_asks_for(client, alice):
    user, secret, _ = alice
    client.force_login(user)
    response = client.post(reverse("accounts:second_factor_start"), follow=True)
    assert "remove it first to replace it" in unescaped(response)
    assert TOTPDevice.objects.filter(user=user).count() == 1


def test_guests_cannot_set_up_a_second_factor(client):
    from accounts.guests import guest_create

    client.force_login(guest_create(nickname="Gus"))
    assert client.post(reverse("accounts:second_factor_start")).status_code == 403
    assert not TOTPDevice.objects.exists()

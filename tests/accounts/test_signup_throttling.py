"""Sign-up is throttled per address: every account comes with a welcome grant."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import PointsAccount, PointsEntry, User
from tests.support import PASSWORD

pytestmark = pytest.mark.django_db

SIGNUP = reverse("accounts:signup")
REFUSED = "Too many accounts have been made from your address this hour."


@pytest.fixture(autouse=True)
def _the_default_limit(settings):
    """The default (tests/config/test_settings.py), whatever the environment says."""
    settings.SIGNUP_ADDRESS_LIMIT = 10


def sign_up(username: str, ip: str, password: str = PASSWORD) -> object:
    """A visitor of their own (no session) signs up from ``ip``."""
    data = {
        "username": username,
        "email": f"{username}@example.com",
        "password1": PASSWORD,
        "password2": password,
    }
    return Client().post(SIGNUP, data, REMOTE_ADDR=ip)


def fill_the_hour(ip: str, count: int = 10) -> None:
    for number in range(count):
        assert sign_up(f"early{number}", ip).status_code == 302


def test_the_eleventh_sign_up_in_an_hour_from_one_address_is_refused_and_makes_nothing():
    fill_the_hour("10.0.0.1")
    points_before = (PointsEntry.objects.count(), PointsAccount.objects.count())

    response = sign_up("eleventh", "10.0.0.1")

    assert response.status_code == 429
    assert REFUSED in response.content.decode()
    assert "Try again in 60 minutes." in response.content.decode()
    assert not User.objects.filter(username="eleventh").exists()
    assert (PointsEntry.objects.count(), PointsAccount.objects.count()) == points_before
    assert User.objects.count() == 10


def test_another_address_may_still_sign_up():
    fill_the_hour("10.0.0.1")
    assert sign_up("elsewhere", "10.0.0.2").status_code == 302
    assert User.objects.filter(username="elsewhere").exists()


def test_sign_up_is_open_again_once_the_hour_is_over(time_machine):
    time_machine.move_to("2030-01-01 12:00:00", tick=False)
    fill_the_hour("10.0.0.1")
    time_machine.move_to("2030-01-01 12:59:30", tick=False)
    assert "Try again in 1 minute." in sign_up("late", "10.0.0.1").content.decode()
    time_machine.move_to("2030-01-01 13:00:01", tick=False)
    assert sign_up("next-hour", "10.0.0.1").status_code == 302


def test_a_form_refused_for_its_mistakes_uses_none_of_the_hour():
    for number in range(10):
        response = sign_up(f"typo{number}", "10.0.0.1", password="not-the-same-one-42")
        assert response.status_code == 200 and "password2" in response.context["form"].errors
    fill_the_hour("10.0.0.1")


def test_the_limit_is_a_setting(settings):
    settings.SIGNUP_ADDRESS_LIMIT = 12
    fill_the_hour("10.0.0.1", count=12)
    assert sign_up("thirteenth", "10.0.0.1").status_code == 429

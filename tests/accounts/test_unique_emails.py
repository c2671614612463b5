"""One account per email address, in any case: sign-up, a guest saving its account and a
profile change are refused a taken address, and the database settles races."""

from __future__ import annotations

from collections.abc import Iterator
from html import escape
from typing import Any

import pytest
from django.contrib.auth import SESSION_KEY
from django.db import IntegrityError, transaction
from django.db.models.signals import pre_save
from django.urls import reverse

from accounts.guests import guest_create
from accounts.models import EMAIL_CLEARED, User
from tests.support import PASSWORD

pytestmark = pytest.mark.django_db

SIGNUP = reverse("accounts:signup")
PROFILE = reverse("accounts:profile")
TAKEN = "Another account already uses that email address."


@pytest.fixture(autouse=True)
def _the_default_limit(settings: Any) -> None:
    settings.SIGNUP_ADDRESS_LIMIT = 10


def signup_data(**overrides: str) -> dict[str, str]:
    return {
        "username": "bob",
        "email": "bob@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **overrides,
    }


def test_sign_up_refuses_an_address_another_member_has_in_any_case(client, make_user):
    make_user("carol", email="bob@example.com")
    response = client.post(SIGNUP, signup_data(email="  BOB@Example.COM "))
    assert response.status_code == 200
    assert response.context["form"].errors["email"] == [TAKEN]
    assert TAKEN in response.content.decode()
    assert not User.objects.filter(username="bob").exists()


def test_a_guest_saving_its_account_is_refused_a_taken_address_and_stays_a_guest(client, make_user):
    make_user("carol", email="dave@example.com")
    guest = guest_create(nickname="Dave")
    client.force_login(guest)
    data = {**signup_data(username="dave"), "email": "Dave@example.com"}
    response = client.post(reverse("accounts:upgrade"), data)
    assert response.context["upgrade_form"].errors["email"] == [TAKEN]
    guest.refresh_from_db()
    assert guest.is_guest and guest.email == ""


def test_a_profile_change_to_a_taken_address_is_refused_and_changes_nothing(client, make_user):
    make_user("carol", email="carol@example.com")
    alice = make_user("alice")
    client.force_login(alice)
    response = client.post(PROFILE, {"display_name": "Al", "email": "CAROL@example.com"})
    assert response.context["form"].errors["email"] == [TAKEN]
    alice.refresh_from_db()
    assert (alice.email, alice.display_name) == ("alice@example.com", "")


def test_a_member_may_change_their_own_address_and_its_case(client, make_user):
    alice = make_user("alice")
    client.force_login(alice)
    client.post(PROFILE, {"display_name": "", "email": "Alice@Example.com"})
    alice.refresh_from_db()
    assert alice.email == "Alice@example.com"  # the domain in lower case, as Django keeps it
    client.post(PROFILE, {"display_name": "", "email": "alice@elsewhere.example"})
    alice.refresh_from_db()
    assert alice.email == "alice@elsewhere.example"


def test_the_database_refuses_a_second_account_with_an_address_and_not_empty_ones(make_user):
    make_user("carol", email="carol@example.com")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("carol2", email="Carol@EXAMPLE.com")
    guest_create(nickname="Gus")  # guests have no address: any number of them
    guest_create(nickname="Gil")
    User.objects.create_user("nomail1")
    User.objects.create_user("nomail2")


@pytest.fixture
def rival_takes(make_user: Any) -> Iterator[Any]:
    """``rival_takes(address)``: just before the next new account is saved, another
    member (an earlier sign-up, committed a moment ago) gets ``address``: the form's
    check has passed, and only the database's constraint is left to refuse."""
    rival = make_user("rival", email="rival@example.com")
    wanted: list[str] = []

    def take(sender: Any, instance: User, **kwargs: Any) -> None:
        if wanted and instance.pk != rival.pk:
            User.objects.filter(pk=rival.pk).update(email=wanted.pop())

    pre_save.connect(take, sender=User)
    yield wanted.append
    pre_save.disconnect(take, sender=User)


def test_two_sign_ups_with_one_address_at_once_the_second_gets_the_forms_message(
    client, rival_takes
):
    rival_takes("bob@example.com")
    response = client.post(SIGNUP, signup_data(email="Bob@example.com"))
    assert response.status_code == 200  # never a 500
    assert response.context["form"].errors["email"] == [TAKEN]
    assert not User.objects.filter(username="bob").exists()
    assert SESSION_KEY not in client.session


def test_a_guest_saving_its_account_as_another_takes_the_address_gets_the_message(
    client, rival_takes
):
    guest = guest_create(nickname="Dave")
    client.force_login(guest)
    rival_takes("dave@example.com")
    response = client.post(
        reverse("accounts:upgrade"), signup_data(username="dave", email="dave@example.com")
    )
    assert response.status_code == 200
    assert TAKEN in response.content.decode()
    guest.refresh_from_db()
    assert guest.is_guest


def test_a_profile_change_as_another_takes_the_address_gets_the_message(
    client, make_user, rival_takes
):
    alice = make_user("alice")
    client.force_login(alice)
    rival_takes("new@example.com")
    response = client.post(PROFILE, {"display_name": "", "email": "new@example.com"})
    assert response.status_code == 200
    assert TAKEN in response.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_asking_about_many_addresses_is_throttled_like_sign_ups(client, make_user, settings):
    settings.SIGNUP_ADDRESS_LIMIT = 2
    for number in range(3):
        make_user(f"m{number}", email=f"m{number}@example.com")
    for number in range(2):
        response = client.post(SIGNUP, signup_data(email=f"m{number}@example.com"))
        assert response.context["form"].errors["email"] == [TAKEN]
    response = client.post(SIGNUP, signup_data(email="m2@example.com"))
    assert response.status_code == 429
    assert "Too many accounts have been made from your address" in response.content.decode()


def test_a_member_whose_address_was_cleared_is_told_at_log_in_and_on_the_profile(client, make_user):
    later = make_user("later", email="", must_replace_email=True)
    response = client.post(
        reverse("accounts:login"), {"username": "later", "password": PASSWORD}, follow=True
    )
    assert escape(EMAIL_CLEARED) in response.content.decode()
    page = client.get(PROFILE).content.decode()
    assert escape(EMAIL_CLEARED) in page and "data-email-cleared" in page
    client.post(PROFILE, {"display_name": "", "email": "later@example.com"})
    later.refresh_from_db()
    assert (later.email, later.must_replace_email) == ("later@example.com", False)
    assert "data-email-cleared" not in client.get(PROFILE).content.decode()

import pytest
from django.urls import reverse

from tests.support import PASSWORD

LOGIN = reverse("accounts:login")
LOGOUT = reverse("accounts:logout")


@pytest.mark.django_db
def test_a_member_logs_in_and_lands_in_the_lobby(client, make_user):
    user = make_user()
    response = client.post(LOGIN, {"username": "alice", "password": PASSWORD})

    assert response.status_code == 302
    assert response.url == reverse("lobby")
    assert client.get(reverse("lobby")).context["user"] == user


@pytest.mark.django_db
def test_log_in_returns_to_the_page_that_asked_for_it(client, make_user):
    make_user()
    profile = reverse("accounts:profile")
    response = client.post(LOGIN, {"username": "alice", "password": PASSWORD, "next": profile})
    assert response.url == profile


@pytest.mark.django_db
def test_a_wrong_password_is_refused_with_a_message(client, make_user):
    make_user()
    response = client.post(LOGIN, {"username": "alice", "password": "wrong-password"})

    assert response.status_code == 200
    assert b"Please enter a correct username and password" in response.content
    assert not response.context["user"].is_authenticated


@pytest.mark.django_db
def test_logging_out_ends_the_session(client, make_user):
    client.force_login(make_user())
    response = client.post(LOGOUT)

    assert response.status_code == 302
    assert not client.get(reverse("lobby")).context["user"].is_authenticated


@pytest.mark.django_db
def test_the_navigation_offers_log_out_only_to_a_signed_in_user(client, make_user):
    assert b"Log in" in client.get(reverse("lobby")).content
    client.force_login(make_user())
    page = client.get(reverse("lobby")).content
    assert b"Log out" in page
    assert b"Log in" not in page

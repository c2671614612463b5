import pytest
from rest_framework.test import APIClient

from accounts.tokens import token_create

ME = "/api/me/"


@pytest.mark.django_db
def test_the_api_refuses_anonymous_callers():
    assert APIClient().get(ME).status_code in {401, 403}


@pytest.mark.django_db
def test_the_api_returns_the_callers_profile_by_token(make_user):
    user = make_user(display_name="Ali")
    _, key = token_create(user=user, name="script")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")

    body = api.get(ME).json()

    assert body["username"] == "alice"
    assert body["display_name"] == "Ali"
    assert body["id"] == user.pk
    assert "email" not in body
    assert "password" not in body


@pytest.mark.django_db
def test_the_api_changes_only_the_display_name(make_user):
    user = make_user()
    api = APIClient()
    api.force_authenticate(user)

    response = api.patch(ME, {"display_name": "Ace", "username": "mallory"}, format="json")

    assert response.status_code == 200
    user.refresh_from_db()
    assert (user.username, user.display_name) == ("alice", "Ace")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Bob", "Another member already goes by that name."),
        ("B\u043eb", "Another member goes by a name that looks the same."),  # a Cyrillic o
    ],
)
def test_the_api_refuses_a_display_name_another_member_goes_by(make_user, name, message):
    make_user("bob")
    user = make_user()
    api = APIClient()
    api.force_authenticate(user)

    response = api.patch(ME, {"display_name": name}, format="json")

    assert response.status_code == 400
    assert response.json()["display_name"] == [message]
    user.refresh_from_db()
    assert user.display_name == ""

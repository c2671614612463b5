import pytest
from django.urls import reverse

from accounts.models import User
from tests.support import PASSWORD

SIGNUP = reverse("accounts:signup")


def signup_data(**overrides: str) -> dict[str, str]:
    data = {
        "username": "bob",
        "email": "bob@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    data.update(overrides)
    return data


@pytest.mark.django_db
def test_the_signup_page_shows_the_form(client):
    response = client.get(SIGNUP)
    assert response.status_code == 200
    assert b'name="username"' in response.content
    assert b'name="email"' in response.content
    assert b"csrfmiddlewaretoken" in response.content


@pytest.mark.django_db
def test_signing_up_creates_the_account_and_logs_the_user_in(client):
    response = client.post(SIGNUP, signup_data())

    assert response.status_code == 302
    assert response.url == reverse("lobby")
    user = User.objects.get(username="bob")
    assert user.email == "bob@example.com"
    assert user.check_password(PASSWORD)
    lobby = client.get(reverse("lobby"))
    assert lobby.context["user"] == user
    assert b"Welcome to Felt, bob." in lobby.content


@pytest.mark.django_db
def test_a_signed_in_user_is_sent_from_signup_to_the_lobby(client, make_user):
    client.force_login(make_user())
    assert client.get(SIGNUP).url == reverse("lobby")


def errors_for(client, **overrides: str) -> dict[str, list[str]]:
    response = client.post(SIGNUP, signup_data(**overrides))
    assert response.status_code == 200, "an invalid form is shown again"
    return response.context["form"].errors


@pytest.mark.django_db
def test_it_refuses_a_username_that_is_taken_in_any_case(client, make_user):
    make_user("Bob", email="first@example.com")
    assert "username" in errors_for(client)
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_it_refuses_a_username_with_forbidden_characters(client):
    assert "username" in errors_for(client, username="bob smith!")


@pytest.mark.django_db
def test_it_requires_a_username(client):
    assert "username" in errors_for(client, username="")


@pytest.mark.django_db
def test_it_requires_an_email_address(client):
    assert errors_for(client, email="")["email"] == ["This field is required."]


@pytest.mark.django_db
def test_it_refuses_a_malformed_email_address(client):
    assert errors_for(client, email="not-an-address")["email"] == ["Enter a valid email address."]


@pytest.mark.django_db
def test_a_new_username_may_not_be_another_members_display_name(client, make_user):
    make_user("carol", display_name="Bob")
    assert errors_for(client, username="bob")["username"] == [
        "Another member already goes by that name."
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "error"),
    [
        ("\u0430dmin", "Another member goes by a name that looks the same."),  # Cyrillic a
        ("\u0430dm\u0456n", "Another member goes by a name that looks the same."),  # and an i
        ("\uff41\uff44\uff4d\uff49\uff4e", "A user with that username already exists."),
        ("b\u043eb", "Another member goes by a name that looks the same."),  # carol's Bob
    ],
)
def test_a_new_username_that_looks_like_another_members_name_is_refused(
    client, make_user, username, error
):
    make_user("admin")
    make_user("carol", display_name="Bob")
    assert errors_for(client, username=username)["username"] == [error]
    assert User.objects.count() == 2


@pytest.mark.django_db
def test_it_refuses_passwords_that_do_not_match(client):
    errors = errors_for(client, password2="something-else-entirely")
    assert "password2" in errors
    assert not User.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("password", "complaint"),
    [
        ("k3#Lp9", "too short"),
        ("password123", "too common"),
        ("8820943177201", "entirely numeric"),
        ("bob@example.com", "too similar"),
    ],
)
def test_it_refuses_weak_passwords(client, password, complaint):
    errors = errors_for(client, password1=password, password2=password)
    assert complaint in " ".join(errors["password2"])
    assert not User.objects.exists()


@pytest.mark.django_db
def test_signing_up_from_a_table_link_goes_back_to_the_table(client):
    form = client.get(SIGNUP, {"next": "/tables/7/"})
    assert b'name="next" value="/tables/7/"' in form.content
    response = client.post(SIGNUP, signup_data(next="/tables/7/"))
    assert response.status_code == 302 and response.url == "/tables/7/"


@pytest.mark.django_db
def test_signing_up_never_sends_the_member_to_another_site(client):
    response = client.post(SIGNUP, signup_data(next="https://evil.example/tables/7/"))
    assert response.url == reverse("lobby")


@pytest.mark.django_db
def test_the_log_in_page_passes_the_table_on_to_sign_up(client):
    page = client.get(reverse("accounts:login"), {"next": "/tables/7/"})
    assert b"/accounts/signup/?next=/tables/7/" in page.content

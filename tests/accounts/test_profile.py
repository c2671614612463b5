import pytest
from django.urls import reverse

from tests.support import PASSWORD

PROFILE = reverse("accounts:profile")
PASSWORD_CHANGE = reverse("accounts:password_change")


@pytest.mark.django_db
@pytest.mark.parametrize("url", [PROFILE, PASSWORD_CHANGE])
def test_account_pages_send_anonymous_visitors_to_log_in(client, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response.url == f"{reverse('accounts:login')}?next={url}"


@pytest.mark.django_db
def test_the_profile_shows_the_username_and_date_joined(client, make_user):
    user = make_user()
    client.force_login(user)
    page = client.get(PROFILE).content.decode()
    assert "alice" in page
    assert user.date_joined.strftime("%-d %B %Y") in page


@pytest.mark.django_db
def test_a_member_sets_a_display_name_that_the_lobby_greets(client, make_user):
    user = make_user()
    client.force_login(user)
    response = client.post(
        PROFILE, {"display_name": "Alice the Rock", "email": user.email}, follow=True
    )

    assert b"Your profile was saved." in response.content
    user.refresh_from_db()
    assert user.display_name == "Alice the Rock"
    assert b"Signed in as Alice the Rock." in client.get(reverse("lobby")).content


@pytest.mark.django_db
def test_a_display_name_longer_than_40_characters_is_refused(client, make_user):
    user = make_user()
    client.force_login(user)
    response = client.post(PROFILE, {"display_name": "x" * 41})
    assert "display_name" in response.context["form"].errors
    user.refresh_from_db()
    assert user.display_name == ""


@pytest.mark.django_db
def test_a_member_changes_the_password_and_stays_logged_in(client, make_user):
    user = make_user()
    client.force_login(user)
    new_password = "a-brand-new-long-passphrase"
    response = client.post(
        PASSWORD_CHANGE,
        {"old_password": PASSWORD, "new_password1": new_password, "new_password2": new_password},
        follow=True,
    )
    assert b"Your password was changed." in response.content
    assert response.context["user"].is_authenticated
    user.refresh_from_db()
    assert user.check_password(new_password)


@pytest.mark.django_db
def test_a_password_change_needs_the_old_password(client, make_user):
    user = make_user()
    client.force_login(user)
    new_password = "a-brand-new-long-passphrase"
    response = client.post(
        PASSWORD_CHANGE,
        {"old_password": "wrong", "new_password1": new_password, "new_password2": new_password},
    )
    assert "old_password" in response.context["form"].errors
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("BOB", "Another member already goes by that name."),  # bob's username
        ("the rock", "Another member already goes by that name."),  # carol's display name
        ("Ali\u202ece", "A display name can only hold visible characters and spaces."),
        ("Al\u200bice", "A display name can only hold visible characters and spaces."),
        # chat lets a joiner through inside an emoji; a name, compared as stored, not
        (
            "\U0001f469\u200d\U0001f4bb",
            "A display name can only hold visible characters and spaces.",
        ),
        ("Ali\nce", "A display name can only hold visible characters and spaces."),
    ],
)
def test_a_display_name_that_passes_for_someone_else_or_hides_text_is_refused(
    client, make_user, name, reason
):
    make_user("bob")
    make_user("carol", display_name="The Rock")
    user = make_user()
    client.force_login(user)
    response = client.post(PROFILE, {"display_name": name, "email": user.email})
    assert response.context["form"].errors["display_name"] == [reason]
    user.refresh_from_db()
    assert user.display_name == ""


LOOKS_TAKEN = "Another member goes by a name that looks the same."


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name",
    [
        "b\u043eb",  # a Cyrillic o in bob's username
        "\uff42\uff4f\uff42",  # fullwidth bob
        "B0B",  # a zero for the O
        "THE R\u041eCK",  # a Cyrillic O in carol's display name
        "The\u2003Rock",  # an em space
    ],
)
def test_a_display_name_that_looks_like_another_members_name_is_refused(client, make_user, name):
    make_user("bob")
    make_user("carol", display_name="The Rock")
    user = make_user()
    client.force_login(user)
    response = client.post(PROFILE, {"display_name": name, "email": user.email})
    assert response.context["form"].errors["display_name"] == [LOOKS_TAKEN]
    user.refresh_from_db()
    assert user.display_name == ""


@pytest.mark.django_db
def test_a_display_name_of_ones_own_username_in_other_letters_is_allowed(client, make_user):
    user = make_user("alice")
    client.force_login(user)
    client.post(PROFILE, {"display_name": "\u0430lice", "email": user.email})  # a Cyrillic a
    user.refresh_from_db()
    assert user.display_name == "\u0430lice"


@pytest.mark.django_db
def test_two_members_cannot_hold_look_alike_display_names_even_past_the_form(make_user):
    from django.db import IntegrityError, transaction

    make_user("carol", display_name="The Rock")
    user = make_user()
    user.display_name = "THE R\u041eCK"
    with pytest.raises(IntegrityError), transaction.atomic():
        user.save()


@pytest.mark.django_db
def test_two_members_cannot_hold_one_display_name_even_past_the_form(make_user):
    from django.db import IntegrityError, transaction

    make_user("carol", display_name="The Rock")
    user = make_user()
    user.display_name = "THE ROCK"
    with pytest.raises(IntegrityError), transaction.atomic():
        user.save()

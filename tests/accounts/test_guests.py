"""Guests: a friends' table's link, a nickname, a seat; later, a full account."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import points
from accounts.guests import GUEST_SESSION_SECONDS, guest_create
from accounts.models import STARTING_POINTS, PointsAccount, PointsEntry, User
from tables import services
from tables.links import table_link
from tables.models import HandPlayer, Table
from tests.support import PASSWORD
from tests.tables.helpers import act, deal, friends_table

pytestmark = pytest.mark.django_db

THROTTLED = "Too many accounts have been made from your address this hour."


@pytest.fixture(autouse=True)
def _the_default_limit(settings: Any) -> None:
    settings.SIGNUP_ADDRESS_LIMIT = 10


@pytest.fixture
def table(make_user: Any) -> Table:
    return services.table_create(owner=make_user("alice"), name="Friday game")


def join_path(table: Table) -> str:
    return reverse("tables:table_join_guest", args=[table.pk])


def table_path(table: Table) -> str:
    return reverse("tables:table_detail", args=[table.pk])


def join(client: Client, table: Table, nickname: str, ip: str = "10.0.0.1") -> Any:
    """Opens the link the host shared (key and all), then joins with ``nickname``."""
    client.get(table_link(table), REMOTE_ADDR=ip)
    return client.post(join_path(table), {"nickname": nickname}, REMOTE_ADDR=ip)


def upgrade_data(**overrides: str) -> dict[str, str]:
    return {
        "username": "dave",
        "email": "dave@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **overrides,
    }


# --- Joining --------------------------------------------------------------------------


def test_the_link_offers_a_nickname_form_beside_log_in_and_sign_up(client, table):
    page = client.get(table_link(table)).content.decode()

    assert "Join Friday game" in page
    assert "alice invited you" in page
    assert 'name="nickname"' in page
    assert f'action="{join_path(table)}"' in page
    assert f"/accounts/login/?next={table_path(table)}" in page
    assert f"/accounts/signup/?next={table_path(table)}" in page


def test_a_nickname_makes_a_guest_signed_in_at_the_table(client, table):
    response = join(client, table, "  Dave  ")

    assert response.status_code == 302
    assert response["Location"] == table_path(table)
    guest = User.objects.get(display_name="Dave")
    assert guest.is_guest
    assert guest.email == ""
    assert not guest.has_usable_password()
    assert guest.username.startswith("guest-")
    assert client.session[SESSION_KEY] == str(guest.pk)
    page = client.get(table_path(table)).content.decode()
    assert "Dave (guest)" in page
    assert "Save your account" in page  # the way to a full account, on the table's page


def test_a_guest_is_kept_in_its_browser_for_a_year_renewed_each_day_it_plays(client, table):
    join(client, table, "Dave")
    cookie = client.cookies["sessionid"]
    assert int(cookie["max-age"]) == GUEST_SESSION_SECONDS

    with time_machine.travel(timezone.now() + timedelta(days=200)):
        client.get(table_path(table))
        renewed = client.cookies["sessionid"]
        assert int(renewed["max-age"]) == GUEST_SESSION_SECONDS
        assert client.session.get_expiry_date() > timezone.now() + timedelta(days=364)


def test_nobody_can_log_in_as_a_guest(client, table):
    join(Client(), table, "Dave")
    guest = User.objects.get(display_name="Dave")

    response = client.post(reverse("accounts:login"), {"username": guest.username, "password": ""})

    assert SESSION_KEY not in client.session
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("nickname", "error"),
    [
        ("", "Choose a nickname to play under."),
        ("   ", "Choose a nickname to play under."),
        ("ALICE", "Another member already goes by that name."),
        ("Rock", "Another member already goes by that name."),
        ("\u0430lice", "Another member goes by a name that looks the same."),  # Cyrillic a
        ("\uff32ock", "Another member goes by a name that looks the same."),  # fullwidth R
        ("Da\u202eve", "A display name can only hold visible characters and spaces."),
        ("x" * 41, "Ensure this value has at most 40 characters (it has 41)."),
    ],
)
def test_a_nickname_is_checked_like_a_display_name(client, table, make_user, nickname, error):
    make_user("bob", display_name="Rock")
    before = User.objects.count()

    response = join(client, table, nickname)

    assert response.status_code == 400
    assert error in response.content.decode()
    assert User.objects.count() == before
    assert SESSION_KEY not in client.session


def test_two_guests_cannot_share_a_nickname(client, table):
    join(Client(), table, "Dave")

    response = join(client, table, "dave")

    assert "Another member already goes by that name." in response.content.decode()
    assert User.objects.filter(is_guest=True).count() == 1


def test_the_nickname_taken_between_the_check_and_the_save_is_a_form_error(table):
    guest_create(nickname="Dave")
    with pytest.raises(Exception, match="Another member already goes by that name."):
        guest_create(nickname="DAVE")
    assert User.objects.filter(is_guest=True).count() == 1


def test_guests_count_with_sign_ups_from_the_same_address(settings, table):
    settings.SIGNUP_ADDRESS_LIMIT = 2
    signup = {
        "username": "erin",
        "email": "erin@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    assert (
        Client().post(reverse("accounts:signup"), signup, REMOTE_ADDR="10.0.0.9").status_code == 302
    )
    assert join(Client(), table, "Dave", ip="10.0.0.9").status_code == 302

    refused = join(Client(), table, "Frank", ip="10.0.0.9")

    assert refused.status_code == 429
    assert THROTTLED in refused.content.decode()
    assert not User.objects.filter(display_name="Frank").exists()
    assert join(Client(), table, "Frank", ip="10.0.0.10").status_code == 302  # another address


def test_guests_join_only_a_friends_table_that_is_still_open(client, make_user, table):
    practice = services.table_create_practice(user=make_user("bob"), bots=1)
    Table.objects.filter(pk=table.pk).update(closed_at=timezone.now())

    for closed_to_guests in (practice, table):
        page = client.get(table_link(closed_to_guests)).content.decode()
        assert "Join as a guest" not in page
        response = join(client, closed_to_guests, "Dave")
        assert response.status_code == 302
        assert not User.objects.filter(is_guest=True).exists()


def test_a_signed_in_member_is_sent_to_the_table_not_made_a_guest(client, make_user, table):
    client.force_login(make_user("bob"))

    assert join(client, table, "Dave")["Location"] == table_path(table)
    assert not User.objects.filter(is_guest=True).exists()


# --- Points -----------------------------------------------------------------------------


def test_a_guest_has_no_points_and_none_can_be_opened_for_it(client, table):
    join(client, table, "Dave")
    guest = User.objects.get(display_name="Dave")

    assert points.points_balance(user=guest) == 0
    with pytest.raises(points.GuestHasNoPoints):
        points.points_account_open(user=guest)
    with pytest.raises(points.GuestHasNoPoints):
        points.points_move(user=guest, amount=500, reason=PointsEntry.Reason.GRANT)
    assert not PointsAccount.objects.filter(user=guest).exists()
    assert not PointsEntry.objects.filter(user=guest).exists()
    assert "data-points-balance" not in client.get(reverse("lobby")).content.decode()


def test_a_guest_buys_in_and_plays_at_a_friends_table_without_points(make_user):
    alice = make_user("alice")
    guest = guest_create(nickname="Dave")
    table = friends_table(alice, guest)

    deal(table)
    act(table, "fold")

    assert HandPlayer.objects.filter(user=guest).count() == 1
    assert not PointsAccount.objects.filter(user=guest).exists()


# --- Upgrading --------------------------------------------------------------------------


def played_hand_as_guest(client: Client, make_user: Any) -> tuple[User, int]:
    """A guest (signed in on ``client``) who played one hand against alice."""
    alice = make_user("alice")
    table = services.table_create(owner=alice, name="Friday game")
    join(client, table, "Dave")
    guest = User.objects.get(display_name="Dave")
    services.seat_take(table_id=table.pk, user=alice, seat=0)
    services.seat_take(table_id=table.pk, user=guest, seat=1)
    deal(table)
    act(table, "fold")
    hand = HandPlayer.objects.get(user=guest).hand_id
    return guest, hand


def test_the_profile_of_a_guest_offers_to_save_the_account(client, table):
    join(client, table, "Dave")

    page = client.get(reverse("accounts:profile")).content.decode()

    assert 'id="save-account"' in page
    assert f'action="{reverse("accounts:upgrade")}"' in page
    assert 'name="password1"' in page
    assert 'id="api-tokens-title"' not in page
    assert "Change your password" not in page


def test_saving_the_account_keeps_its_id_and_hands_and_makes_a_member(client, make_user):
    guest, hand = played_hand_as_guest(client, make_user)

    response = client.post(reverse("accounts:upgrade"), upgrade_data(), follow=True)

    assert "Your account is saved: log in as dave with your password." in response.content.decode()
    member = User.objects.get(pk=guest.pk)
    assert (member.username, member.email, member.display_name) == (
        "dave",
        "dave@example.com",
        "Dave",
    )
    assert not member.is_guest
    assert member.check_password(PASSWORD)
    assert client.session[SESSION_KEY] == str(member.pk), "still signed in in this browser"
    history = client.get(reverse("tables:hand_history_list")).content.decode()
    assert reverse("tables:hand_replayer", args=[hand]) in history
    assert Client().login(username="dave", password=PASSWORD)


def test_the_saved_account_gets_the_welcome_grant_exactly_once(client, make_user):
    guest, _ = played_hand_as_guest(client, make_user)

    client.post(reverse("accounts:upgrade"), upgrade_data())
    again = client.post(reverse("accounts:upgrade"), upgrade_data(username="dave2"), follow=True)

    assert "This account is a full account already." in again.content.decode()
    welcomes = PointsEntry.objects.filter(user=guest, reason=PointsEntry.Reason.WELCOME)
    assert [w.amount for w in welcomes] == [STARTING_POINTS]
    assert points.points_balance(user=guest) == STARTING_POINTS
    assert User.objects.get(pk=guest.pk).username == "dave"
    points.points_account_open(user=guest)  # as sign-up would: the account exists already
    assert welcomes.count() == 1


def test_a_guest_may_take_its_own_nickname_as_username(client, table):
    join(client, table, "Dave")

    client.post(reverse("accounts:upgrade"), upgrade_data(username="dave"))

    assert User.objects.get(display_name="Dave").username == "dave"


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"username": "bob"}, "A user with that username already exists."),
        ({"username": "Rock"}, "Another member already goes by that name."),
        ({"password2": "something-else-entirely"}, "The two password fields didn"),
        ({"password1": "123", "password2": "123"}, "This password is too short."),
        ({"email": "not an email"}, "Enter a valid email address."),
    ],
)
def test_a_bad_upgrade_says_why_and_leaves_the_guest_as_it_was(
    client, table, make_user, changes, error
):
    make_user("bob", display_name="Rock")
    join(client, table, "Dave")
    guest = User.objects.get(display_name="Dave")

    response = client.post(reverse("accounts:upgrade"), upgrade_data(**changes))

    assert response.status_code == 200
    assert error in response.content.decode()
    still = User.objects.get(pk=guest.pk)
    assert still.is_guest and still.username == guest.username
    assert not still.has_usable_password()
    assert not PointsAccount.objects.filter(user=guest).exists()
    assert "Dave (guest)" in response.content.decode()


def test_a_guest_keeps_a_nickname_on_its_profile(client, table):
    join(client, table, "Dave")

    response = client.post(reverse("accounts:profile"), {"display_name": " "})

    assert "A guest plays under a nickname: keep one." in response.content.decode()
    assert User.objects.get(is_guest=True).display_name == "Dave"


# --- Sign-up and the landing page ------------------------------------------------------


def test_a_new_member_is_welcomed_once(client):
    signup = {
        "username": "erin",
        "email": "erin@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    lobby = client.post(reverse("accounts:signup"), signup, follow=True).content.decode()

    assert lobby.count("Welcome") == 1
    assert "Welcome to Felt, erin." in lobby


def test_the_landing_page_says_what_felt_is_for_with_the_way_in(client):
    page = client.get(reverse("lobby")).content.decode()

    for heading, way_in in [
        ("Play with friends by link", "/accounts/signup/?next=/tables/new/"),
        ("Practise against bots", "/accounts/signup/?next=/tables/practice/"),
        ("Sit-n-gos", 'href="/tournaments/"'),
        ("Clubs and their tournaments", "/accounts/signup/?next=/clubs/"),
        ("Hand histories", "/accounts/signup/?next=/hands/"),
    ]:
        assert heading in page
        assert way_in in page

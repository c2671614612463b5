import pytest
from django.urls import reverse

from tests.support import PASSWORD

LOGIN = reverse("accounts:login")
BLOCKED = b"Too many failed log-in attempts. Try again in 5 minutes."


def fail_logins(client, username: str, times: int, ip: str = "10.0.0.1") -> None:
    for _ in range(times):
        client.post(LOGIN, {"username": username, "password": "guess"}, REMOTE_ADDR=ip)


@pytest.mark.django_db
def test_four_failures_still_allow_the_right_password(client, make_user):
    make_user()
    fail_logins(client, "alice", 4)
    response = client.post(LOGIN, {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302


@pytest.mark.django_db
def test_the_fifth_failure_blocks_the_username_with_a_clear_message(client, make_user):
    make_user()
    fail_logins(client, "alice", 4)
    response = client.post(
        LOGIN, {"username": "alice", "password": "guess"}, REMOTE_ADDR="10.0.0.1"
    )
    assert BLOCKED in response.content


@pytest.mark.django_db
def test_a_username_blocked_at_one_address_is_refused_there_even_with_the_right_password(
    client, make_user
):
    make_user()
    fail_logins(client, "alice", 5, ip="10.0.0.1")
    response = client.post(
        LOGIN, {"username": "ALICE", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1"
    )
    assert response.status_code == 200
    assert BLOCKED in response.content
    assert not response.context["user"].is_authenticated


@pytest.mark.django_db
def test_someone_failing_a_members_password_elsewhere_does_not_lock_the_member_out(
    client, make_user
):
    make_user()
    fail_logins(client, "alice", 5, ip="10.6.6.6")  # someone else, from their address
    response = client.post(
        LOGIN, {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1"
    )
    assert response.status_code == 302  # alice, from her own address


@pytest.mark.django_db
def test_guessing_one_username_from_many_addresses_blocks_it_everywhere(
    client, make_user, settings
):
    settings.LOGIN_USERNAME_FAILURE_LIMIT = 12
    make_user()
    for address in range(3):  # 4 failures each: no single address reaches its limit
        fail_logins(client, "alice", 4, ip=f"10.1.0.{address}")
    response = client.post(
        LOGIN, {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1"
    )
    assert BLOCKED in response.content


@pytest.mark.django_db
def test_an_address_guessing_many_usernames_is_blocked(client, make_user, settings):
    make_user("zoe")
    for number in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT):
        fail_logins(client, f"name{number}", 1, ip="10.0.0.7")
    response = client.post(LOGIN, {"username": "zoe", "password": PASSWORD}, REMOTE_ADDR="10.0.0.7")
    assert BLOCKED in response.content


@pytest.mark.django_db
def test_other_users_and_addresses_are_not_blocked(client, make_user):
    make_user("alice")
    make_user("bob")
    fail_logins(client, "alice", 5, ip="10.0.0.1")
    response = client.post(LOGIN, {"username": "bob", "password": PASSWORD}, REMOTE_ADDR="10.0.0.2")
    assert response.status_code == 302


@pytest.mark.django_db
def test_a_successful_log_in_resets_the_username_count(client, make_user):
    make_user()
    fail_logins(client, "alice", 4, ip="10.0.0.1")
    ok = client.post(LOGIN, {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1")
    assert ok.status_code == 302
    client.logout()
    fail_logins(client, "alice", 4, ip="10.0.0.1")  # four more from there: still allowed
    response = client.post(
        LOGIN, {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1"
    )
    assert response.status_code == 302


@pytest.mark.django_db
def test_the_block_ends_after_its_time(client, make_user, time_machine):
    make_user()
    time_machine.move_to("2030-01-01 12:00:00", tick=False)
    fail_logins(client, "alice", 5)
    time_machine.move_to("2030-01-01 12:04:00", tick=False)
    at = {"REMOTE_ADDR": "10.0.0.1"}
    response = client.post(LOGIN, {"username": "alice", "password": PASSWORD}, **at)
    assert b"Try again in 1 minute." in response.content
    time_machine.move_to("2030-01-01 12:05:01", tick=False)
    response = client.post(LOGIN, {"username": "alice", "password": PASSWORD}, **at)
    assert response.status_code == 302


@pytest.mark.django_db
def test_the_admin_log_in_is_the_sites_and_throttled_as_it_is(client, make_user):
    make_user(is_staff=True)
    response = client.post(reverse("admin:login") + "?next=/admin/accounts/user/")
    assert response.status_code == 302  # no password is taken there
    assert response.url == LOGIN + "?next=%2Fadmin%2Faccounts%2Fuser%2F"
    fail_logins(client, "alice", 5)
    response = client.post(
        response.url, {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1"
    )
    assert BLOCKED in response.content

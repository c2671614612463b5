"""The member's sessions on the profile: each browser logged in, with its device, address
and last visit, and ending one of them or all but this one."""

from __future__ import annotations

import re
from datetime import timedelta
from importlib import import_module

import pytest
from django.apps import apps
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.devices import UNKNOWN, device_name
from accounts.guests import guest_create
from accounts.member_sessions import LAST_SEEN_EVERY
from accounts.models import MemberSession
from tests.support import PASSWORD

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_redis")]

PROFILE = reverse("accounts:profile")
END_OTHERS = reverse("accounts:sessions_end_others")
FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)


def browser(user, user_agent: str = FIREFOX, address: str = "203.0.113.7", **extra) -> Client:
    """A browser of its own that logged in on the log-in page."""
    client = Client(HTTP_USER_AGENT=user_agent, REMOTE_ADDR=address, **extra)
    response = client.post(
        reverse("accounts:login"), {"username": user.username, "password": PASSWORD}
    )
    assert response.status_code == 302, "logged in"
    return client


def row_of(client: Client) -> MemberSession:
    return MemberSession.objects.get(session_id=client.cookies["sessionid"].value)


def end_url(client: Client) -> str:
    return reverse("accounts:session_end", args=[row_of(client).pk])


def is_logged_in(client: Client) -> bool:
    return client.get(PROFILE).status_code == 200


def listed(client: Client) -> list[str]:
    """The profile's sessions, each as its text."""
    page = client.get(PROFILE).content.decode()
    rows = re.findall(r"<li class=\"row[^\"]*\" data-session>(.*?)</li>", page, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in rows]


def test_a_log_in_is_listed_with_its_device_address_and_time(make_user):
    alice = make_user()
    laptop = browser(alice)
    [row] = listed(laptop)
    assert row.startswith("Firefox on Windows This browser 203.0.113.7 · active now")
    stored = row_of(laptop)
    assert stored.user == alice and stored.user_agent == FIREFOX
    assert timezone.now() - stored.last_seen_at < timedelta(minutes=1)


def test_two_browsers_each_list_both_and_mark_their_own(make_user):
    alice = make_user()
    laptop = browser(alice)
    phone = browser(alice, IPHONE, "198.51.100.20")
    assert [row.split(" · ")[0] for row in listed(phone)] == [
        "Mobile Safari on iOS (iPhone) This browser 198.51.100.20",
        "Firefox on Windows 203.0.113.7",
    ]
    from_laptop = listed(laptop)
    assert from_laptop[0].startswith("Firefox on Windows This browser")
    assert "This browser" not in from_laptop[1] and "Log out" in from_laptop[1]


def test_ending_a_session_logs_that_browser_out_at_its_next_request(make_user):
    alice = make_user()
    laptop = browser(alice)
    phone = browser(alice, IPHONE)
    response = laptop.post(end_url(phone), follow=True)
    assert b"That session was ended" in response.content
    assert not is_logged_in(phone)
    assert phone.get(PROFILE).url.startswith(reverse("accounts:login"))
    assert is_logged_in(laptop)
    assert len(listed(laptop)) == 1


def test_log_out_everywhere_else_ends_every_other_session_and_keeps_this_one(make_user):
    alice = make_user()
    laptop, phone, tablet = browser(alice), browser(alice, IPHONE), browser(alice)
    bob = browser(make_user("bob"))
    response = laptop.post(END_OTHERS, follow=True)
    assert b"You were logged out of 2 other sessions." in response.content
    assert not is_logged_in(phone) and not is_logged_in(tablet)
    assert is_logged_in(laptop) and is_logged_in(bob), "this browser, and other members, stay"
    assert [row.split(" · ")[0] for row in listed(laptop)] == [
        "Firefox on Windows This browser 203.0.113.7"
    ]
    again = laptop.post(END_OTHERS, follow=True)
    assert b"You were logged in nowhere else." in again.content


def test_another_members_session_answers_404_and_stays(make_user):
    alice, bob = make_user(), make_user("bob")
    laptop = browser(alice)
    bobs = browser(bob)
    assert laptop.post(end_url(bobs)).status_code == 404
    assert is_logged_in(bobs)
    unknown = reverse("accounts:session_end", args=[10**9])
    assert laptop.post(unknown).status_code == 404


def test_this_browsers_own_session_is_not_ended_by_id_it_logs_out_instead(make_user):
    laptop = browser(make_user())
    assert "Log out" not in listed(laptop)[0]
    assert laptop.post(end_url(laptop)).status_code == 404
    assert is_logged_in(laptop)


def test_ending_sessions_needs_a_post_with_csrf(make_user):
    alice = make_user()
    phone = browser(alice, IPHONE)
    laptop = Client(enforce_csrf_checks=True)
    laptop.cookies = browser(alice).cookies  # logged in, then posting without the token
    assert laptop.get(end_url(phone)).status_code == 405
    assert laptop.post(end_url(phone)).status_code == 403
    assert laptop.post(END_OTHERS).status_code == 403
    assert is_logged_in(phone)


def test_logging_out_takes_the_session_off_the_list(make_user):
    alice = make_user()
    laptop, phone = browser(alice), browser(alice, IPHONE)
    phone.post(reverse("accounts:logout"))
    assert MemberSession.objects.filter(user=alice).count() == 1
    assert len(listed(laptop)) == 1


def test_an_expired_session_is_not_listed(make_user):
    alice = make_user()
    laptop, phone = browser(alice), browser(alice, IPHONE)
    Session.objects.filter(session_key=phone.cookies["sessionid"].value).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    assert [row.split(" · ")[0] for row in listed(laptop)] == [
        "Firefox on Windows This browser 203.0.113.7"
    ]


def test_a_session_is_seen_again_at_most_every_few_minutes(make_user, time_machine):
    time_machine.move_to(timezone.now(), tick=False)
    alice = make_user()
    laptop = browser(alice)
    logged_in_at = row_of(laptop).last_seen_at
    time_machine.shift(LAST_SEEN_EVERY - timedelta(seconds=1))
    with CaptureQueriesContext(connection) as queries:
        laptop.get(reverse("lobby"), REMOTE_ADDR="203.0.113.99")
    writes = [q["sql"] for q in queries if "accounts_membersession" in q["sql"]]
    assert not [sql for sql in writes if not sql.startswith("SELECT")], "no write per request"
    assert row_of(laptop).last_seen_at == logged_in_at
    time_machine.shift(timedelta(seconds=1))
    laptop.get(reverse("lobby"), REMOTE_ADDR="203.0.113.99")
    seen = row_of(laptop)
    assert seen.last_seen_at == logged_in_at + LAST_SEEN_EVERY
    assert seen.ip == "203.0.113.99", "the address it was last seen from"
    assert seen.created_at == logged_in_at


def test_a_guest_has_no_list_of_sessions(make_user):
    guest = guest_create(nickname="Dave")
    client = Client()
    client.force_login(guest)
    client.get(PROFILE)
    assert not MemberSession.objects.exists()


def test_sessions_open_before_the_list_began_are_listed_and_can_be_ended(make_user):
    alice = make_user()
    laptop, phone = browser(alice), browser(alice, IPHONE)
    MemberSession.objects.all().delete()  # as before migration 0010
    import_module("accounts.migrations.0010_member_sessions").list_open_sessions(apps, None)
    assert MemberSession.objects.filter(user=alice).count() == 2
    assert MemberSession.objects.filter(user_agent="", last_seen_at=None).count() == 2
    laptop.post(END_OTHERS)
    assert not is_logged_in(phone) and is_logged_in(laptop)


@pytest.mark.parametrize(
    ("user_agent", "name"),
    [
        (FIREFOX, "Firefox on Windows"),
        (IPHONE, "Mobile Safari on iOS (iPhone)"),
        (
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/131.0.0.0 Safari/537.36",
            "Chrome on Linux",
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
            "Edge on Windows",
        ),
        ("", UNKNOWN),
        ("garbage", UNKNOWN),
    ],
)
def test_a_user_agent_is_named_as_a_member_reads_it(user_agent, name):
    assert device_name(user_agent) == name


PASSWORD_CHANGE = reverse("accounts:password_change")
NEW_PASSWORD = "a-brand-new-long-passphrase"


def change_password(client: Client, **choices) -> str:
    fields = {"old_password": PASSWORD, "new_password1": NEW_PASSWORD}
    response = client.post(PASSWORD_CHANGE, {**fields, "new_password2": NEW_PASSWORD, **choices})
    assert response.status_code == 302, "changed"
    return client.get(PROFILE).content.decode()


def make_token(client: Client, name: str) -> str:
    page = client.post(reverse("accounts:api_token_create"), {"name": name}).content.decode()
    return re.search(r"data-new-token>(felt_[^<]+)</textarea>", page).group(1)


def api_answers(key: str) -> int:
    return Client(HTTP_AUTHORIZATION=f"Bearer {key}").get("/api/me/").status_code


def test_a_password_change_ends_the_other_sessions_and_keeps_the_tokens_unless_asked(
    make_user,
):
    alice = make_user()
    laptop, phone = browser(alice), browser(alice, IPHONE)
    key = make_token(laptop, "tracker")
    form = laptop.get(PASSWORD_CHANGE).content.decode()
    assert 'name="revoke_tokens"' in form and "checked" not in form, "offered, unticked"
    page = change_password(laptop)
    assert "You were logged out everywhere else." in page and "revoked" not in page
    assert not is_logged_in(phone) and is_logged_in(laptop)
    assert [row.split(" · ")[0] for row in listed(laptop)] == [
        "Firefox on Windows This browser 203.0.113.7"
    ]
    assert MemberSession.objects.filter(user=alice).count() == 1, "the other row went too"
    assert api_answers(key) == 200


def test_a_password_change_revokes_every_api_token_when_the_member_ticks_it(make_user):
    alice = make_user()
    laptop = browser(alice)
    keys = [make_token(laptop, "tracker"), make_token(laptop, "notebook")]
    assert "Also revoke my 2 API tokens" in laptop.get(PASSWORD_CHANGE).content.decode()
    bobs_key = make_token(browser(make_user("bob")), "bob's")
    page = change_password(laptop, revoke_tokens="on")
    assert "2 API tokens revoked." in page and "You have no API tokens." in page
    assert [api_answers(key) for key in keys] == [401, 401]
    assert api_answers(bobs_key) == 200, "another member's tokens stay"


def test_a_member_without_tokens_is_not_offered_to_revoke_them(make_user):
    laptop = browser(make_user())
    assert 'name="revoke_tokens"' not in laptop.get(PASSWORD_CHANGE).content.decode()


def test_a_refused_password_change_ends_nothing_and_revokes_nothing(make_user):
    alice = make_user()
    laptop, phone = browser(alice), browser(alice, IPHONE)
    key = make_token(laptop, "tracker")
    response = laptop.post(
        PASSWORD_CHANGE,
        {
            "old_password": "wrong",
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
            "revoke_tokens": "on",
        },
    )
    assert response.status_code == 200 and "old_password" in response.context["form"].errors
    assert is_logged_in(phone) and api_answers(key) == 200


def test_while_the_cache_does_not_answer_pages_load_and_nothing_is_written(make_user):
    from django.conf import settings
    from django.test import override_settings

    alice = make_user()
    laptop = browser(alice)
    unreachable = {"default": {**settings.CACHES["default"], "LOCATION": "redis://127.0.0.1:9/0"}}
    with override_settings(CACHES=unreachable), CaptureQueriesContext(connection) as queries:
        assert laptop.get(reverse("accounts:password_change")).status_code == 200
    assert not [q for q in queries if "accounts_membersession" in q["sql"]]

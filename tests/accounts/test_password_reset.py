"""Forgotten passwords: a link mailed to a confirmed address (a real SMTP server, a
real Celery worker), a new password, and every other session ended; the same answer
whatever the address; throttled like log-ins."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.support import PASSWORD

pytestmark = pytest.mark.usefixtures("celery_worker")

FORGOT = reverse("accounts:password_reset")
SENT = reverse("accounts:password_reset_done")
NEW_PASSWORD = "a-brand-new-passphrase-41"
THROTTLED = "Too many links have been asked for. Try again in 60 minutes."


def confirmed(user):
    user.confirmed_email, user.email_confirmed_at = user.email, timezone.now()
    user.save()
    return user


def ask_for_a_link(client, email: str, ip: str = "10.0.0.1"):
    return client.post(FORGOT, {"email": email}, REMOTE_ADDR=ip)


def set_new_password(client, link_path: str, password: str = NEW_PASSWORD):
    """Follows the mail's link as a browser would: Django swaps the token for a
    session key and redirects; the form then posts the new password."""
    opened = client.get(link_path)
    assert opened.status_code == 302, "a valid link redirects to the form"
    form_page = client.get(opened["Location"])
    assert form_page.context["validlink"]
    return client.post(opened["Location"], {"new_password1": password, "new_password2": password})


def test_the_log_in_page_offers_a_new_password(client):
    page = client.get(reverse("accounts:login"))
    assert f'href="{FORGOT}">Forgot your password?</a>' in page.content.decode()


def test_a_member_gets_a_link_by_mail_sets_a_new_password_and_is_logged_in(
    client, make_user, smtp_inbox
):
    alice = confirmed(make_user("alice"))
    response = ask_for_a_link(client, "ALICE@example.com")  # any case
    assert response.status_code == 302 and response["Location"] == SENT

    [mail] = smtp_inbox.wait_for(1)
    assert mail.recipients == ("alice@example.com",)
    assert mail.subject == "Your new Felt password"
    assert "works once, within 1 hour" in mail.body
    assert mail.link().startswith("http://testserver/accounts/password/reset/")

    done = set_new_password(client, mail.link_path())
    assert done.status_code == 302 and done["Location"] == reverse("lobby")
    lobby = client.get(done["Location"])
    assert lobby.context["user"] == alice  # logged in with it
    assert "Your password was changed and you are logged in." in lobby.content.decode()

    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert Client().login(username="alice", password=NEW_PASSWORD)
    assert not Client().login(username="alice", password=PASSWORD)


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client, make_user, smtp_inbox):
    confirmed(make_user("alice"))
    unknown = ask_for_a_link(client, "nobody@example.com")
    known = ask_for_a_link(client, "alice@example.com")
    assert (unknown.status_code, unknown["Location"]) == (known.status_code, known["Location"])
    assert "If an account uses that address, we sent a link" in client.get(SENT).content.decode()

    smtp_inbox.wait_for(1)  # alice's, sent after the unknown one's would have been
    assert [mail.recipients for mail in smtp_inbox.messages] == [("alice@example.com",)]


def test_guests_deactivated_accounts_and_unconfirmed_addresses_get_no_mail(
    client, make_user, smtp_inbox
):
    confirmed(make_user("gone", is_active=False))
    make_user("unsure")  # never followed the link to confirm the address
    nopass = confirmed(make_user("nopass"))
    nopass.set_unusable_password()
    nopass.save()
    confirmed(make_user("alice"))
    for email in ("gone@example.com", "unsure@example.com", "nopass@example.com"):
        assert ask_for_a_link(client, email)["Location"] == SENT
    ask_for_a_link(client, "alice@example.com")

    smtp_inbox.wait_for(1)
    assert [mail.recipients for mail in smtp_inbox.messages] == [("alice@example.com",)]


def test_a_guest_has_no_address_to_ask_with(client, smtp_inbox):
    response = ask_for_a_link(client, "")
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()


def test_links_for_one_address_are_throttled_whether_or_not_it_has_an_account(
    client, make_user, smtp_inbox
):
    confirmed(make_user("alice"))
    confirmed(make_user("bob"))
    for _ in range(3):
        assert ask_for_a_link(client, "alice@example.com").status_code == 302
        assert ask_for_a_link(client, "nobody@example.com").status_code == 302
    for email in ("alice@example.com", "Nobody@Example.com"):
        refused = ask_for_a_link(client, email)
        assert refused.status_code == 429
        assert THROTTLED in refused.content.decode()

    ask_for_a_link(client, "bob@example.com")  # another address is not held up
    smtp_inbox.wait_for(4)
    assert len(smtp_inbox.to("alice@example.com")) == 3  # the refused one sent nothing
    assert len(smtp_inbox.to("bob@example.com")) == 1


def test_links_from_one_client_address_are_throttled(client, make_user, smtp_inbox, settings):
    settings.MAIL_LINK_ADDRESS_LIMIT = 2
    confirmed(make_user("alice"))
    assert ask_for_a_link(client, "someone@example.com", ip="10.0.0.7").status_code == 302
    assert ask_for_a_link(client, "anyone@example.com", ip="10.0.0.7").status_code == 302
    refused = ask_for_a_link(client, "alice@example.com", ip="10.0.0.7")
    assert refused.status_code == 429 and THROTTLED in refused.content.decode()
    assert ask_for_a_link(client, "alice@example.com", ip="10.0.0.8").status_code == 302
    smtp_inbox.wait_for(1)
    assert len(smtp_inbox.to("alice@example.com")) == 1


def test_a_used_link_is_refused_with_a_page_that_says_why(client, make_user, smtp_inbox):
    confirmed(make_user("alice"))
    ask_for_a_link(client, "alice@example.com")
    [mail] = smtp_inbox.wait_for(1)
    set_new_password(client, mail.link_path())

    again = Client().get(mail.link_path(), follow=True)
    page = again.content.decode()
    assert not again.context["validlink"]
    assert "This link no longer works" in page
    assert "works once, for 1 hour after it was sent" in page
    assert 'name="new_password1"' not in page


def test_an_expired_link_is_refused(client, make_user, smtp_inbox):
    alice = confirmed(make_user("alice"))
    ask_for_a_link(client, "alice@example.com")
    [mail] = smtp_inbox.wait_for(1)
    with time_machine.travel(timezone.now() + timedelta(hours=1, minutes=1)):
        expired = client.get(mail.link_path(), follow=True)
    assert not expired.context["validlink"]
    assert "This link no longer works" in expired.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_a_link_for_an_account_deactivated_since_opens_nothing(client, make_user, smtp_inbox):
    alice = confirmed(make_user("alice"))
    ask_for_a_link(client, "alice@example.com")
    [mail] = smtp_inbox.wait_for(1)
    alice.is_active = False
    alice.save()
    assert not client.get(mail.link_path(), follow=True).context["validlink"]


def test_a_tampered_link_opens_nothing(client, make_user, smtp_inbox):
    confirmed(make_user("alice"))
    ask_for_a_link(client, "alice@example.com")
    [mail] = smtp_inbox.wait_for(1)
    tampered = mail.link_path()[:-3] + "xyz/"
    assert not client.get(tampered, follow=True).context["validlink"]


def test_a_new_password_ends_every_other_session(client, make_user, smtp_inbox):
    confirmed(make_user("alice"))
    elsewhere = Client()
    assert elsewhere.login(username="alice", password=PASSWORD)
    assert elsewhere.get(reverse("accounts:profile")).status_code == 200

    ask_for_a_link(client, "alice@example.com")
    [mail] = smtp_inbox.wait_for(1)
    set_new_password(client, mail.link_path())

    assert elsewhere.get(reverse("accounts:profile")).status_code == 302  # to log in
    assert client.get(reverse("accounts:profile")).status_code == 200  # this one stays


def test_felts_password_rules_apply_to_the_new_password(client, make_user, smtp_inbox):
    alice = confirmed(make_user("alice"))
    ask_for_a_link(client, "alice@example.com")
    [mail] = smtp_inbox.wait_for(1)
    refused = set_new_password(client, mail.link_path(), password="12345678")
    assert refused.status_code == 200
    assert "This password is too common." in refused.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_the_new_password_may_revoke_the_api_tokens_and_ends_the_listed_sessions(
    client, make_user, smtp_inbox
):
    from rest_framework.test import APIClient

    from accounts.member_sessions import MemberSession
    from accounts.tokens import token_create

    alice = confirmed(make_user("alice"))
    _, key = token_create(user=alice, name="tracker")
    elsewhere = Client()
    assert elsewhere.login(username="alice", password=PASSWORD)
    elsewhere.get(reverse("accounts:profile"))
    assert MemberSession.objects.filter(user=alice).count() == 1

    ask_for_a_link(client, "alice@example.com")
    [mail] = smtp_inbox.wait_for(1)
    opened = client.get(mail.link_path())
    form = client.get(opened["Location"]).content.decode()
    assert "Also revoke my API tokens" in form, "offered: she has a token"
    done = client.post(
        opened["Location"],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD, "revoke_tokens": "on"},
    )

    assert "1 API token revoked." in client.get(done["Location"]).content.decode()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert api.get("/api/hands/").status_code == 401
    listed = MemberSession.objects.filter(user=alice)
    assert [row.session_id for row in listed] == [client.session.session_key], "only hers"


def test_a_member_with_a_second_factor_gives_a_code_after_the_new_password(
    client, make_user, smtp_inbox
):
    from django.contrib.auth import SESSION_KEY

    from tests.support.second_factor import set_up_an_app

    alice = confirmed(make_user("alice"))
    client.force_login(alice)
    _, recovery_codes = set_up_an_app(client)
    client.logout()

    ask_for_a_link(client, "alice@example.com")
    [mail] = smtp_inbox.wait_for(1)
    done = set_new_password(client, mail.link_path())

    code_step = reverse("accounts:login_code")
    assert done.status_code == 302 and done["Location"] == code_step
    assert SESSION_KEY not in client.session, "the mail alone does not log in"
    assert "give a code from your app" in client.get(code_step).content.decode()
    response = client.post(code_step, {"code": recovery_codes[0]})
    assert response.status_code == 302 and response["Location"] == reverse("lobby")
    assert SESSION_KEY in client.session

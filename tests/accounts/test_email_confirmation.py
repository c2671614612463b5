"""Confirming an address: sign-up (and a guest saving its account) mails a signed,
expiring link; it works once; the profile says where the address stands and sends
the link again; only a confirmed address gets a link to a new password."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.guests import guest_create
from accounts.models import User
from tests.support import PASSWORD

pytestmark = pytest.mark.usefixtures("celery_worker")

PROFILE = reverse("accounts:profile")
SEND_AGAIN = reverse("accounts:email_confirm_send")


def sign_up(client, username: str = "alice"):
    return client.post(
        reverse("accounts:signup"),
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        follow=True,
    )


def test_sign_up_mails_a_link_that_confirms_the_address_once(client, smtp_inbox):
    signed_up = sign_up(client).content.decode()
    assert "We sent a link to alice@example.com to confirm it is yours." in signed_up
    assert "Not confirmed yet" in client.get(PROFILE).content.decode()

    [mail] = smtp_inbox.wait_for(1)
    assert mail.recipients == ("alice@example.com",)
    assert mail.subject == "Confirm your address for Felt"
    assert "It works once, for 7 days." in mail.body

    confirmed = Client().get(mail.link_path())  # no log-in needed: the mail is the proof
    assert confirmed.status_code == 200
    assert "alice@example.com</strong> is confirmed" in confirmed.content.decode()
    alice = User.objects.get(username="alice")
    assert alice.email_is_confirmed and alice.email_confirmed_at is not None
    profile = client.get(PROFILE).content.decode()
    assert "Confirmed on" in profile and "Send the link again" not in profile

    again = client.get(mail.link_path())
    assert again.status_code == 400
    assert "This link was used already: your address is confirmed." in again.content.decode()


def test_a_tampered_link_is_refused_and_confirms_nothing(client, smtp_inbox):
    sign_up(client)
    [mail] = smtp_inbox.wait_for(1)
    token = mail.link_path().split("/")[-2]
    for bad in (token[:-2] + "xx", token[:20], token.replace(":", ":0", 1)):
        refused = client.get(reverse("accounts:email_confirm", args=[bad]))
        assert refused.status_code == 400
        assert "This link is not valid." in refused.content.decode()
    assert not User.objects.get(username="alice").email_is_confirmed


def test_an_expired_link_is_refused(client, smtp_inbox):
    sign_up(client)
    [mail] = smtp_inbox.wait_for(1)
    with time_machine.travel(timezone.now() + timedelta(days=7, minutes=1)):
        refused = client.get(mail.link_path())
    assert refused.status_code == 400
    assert "This link has expired." in refused.content.decode()
    assert not User.objects.get(username="alice").email_is_confirmed


def test_a_link_for_an_address_changed_since_confirms_nothing(client, smtp_inbox):
    sign_up(client)
    [mail] = smtp_inbox.wait_for(1)
    User.objects.filter(username="alice").update(email="alice@elsewhere.example")
    refused = client.get(mail.link_path())
    assert refused.status_code == 400
    assert "an address your account no longer uses" in refused.content.decode()
    assert not User.objects.get(username="alice").email_is_confirmed


def test_a_changed_address_is_unconfirmed_again(make_user):
    alice = make_user("alice")
    alice.confirmed_email, alice.email_confirmed_at = alice.email, timezone.now()
    assert alice.email_is_confirmed
    alice.email = "alice@elsewhere.example"
    assert not alice.email_is_confirmed


def test_an_address_changed_on_the_profile_is_mailed_its_link(client, make_user, smtp_inbox):
    alice = make_user("alice")
    alice.confirmed_email, alice.email_confirmed_at = alice.email, timezone.now()
    alice.save()
    client.login(username="alice", password=PASSWORD)

    saved = client.post(PROFILE, {"display_name": "", "email": "alice@new.example"}, follow=True)

    assert "We sent a link to alice@new.example to confirm it is yours." in saved.content.decode()
    assert "Not confirmed yet" in saved.content.decode()
    [mail] = smtp_inbox.wait_for(1)
    assert mail.recipients == ("alice@new.example",)
    assert Client().get(mail.link_path()).status_code == 200
    assert User.objects.get(username="alice").email_is_confirmed
    client.post(PROFILE, {"display_name": "Al", "email": "alice@new.example"})
    sign_up(Client(), "bob")  # mailed after any the name change would have sent
    smtp_inbox.wait_for(2)
    assert len(smtp_inbox.to("alice@new.example")) == 1, "a name change alone mails nothing"


def test_the_profile_sends_the_link_again_throttled(client, make_user, smtp_inbox):
    make_user("alice")  # an existing member: the address counts as unconfirmed
    client.login(username="alice", password=PASSWORD)
    profile = client.get(PROFILE).content.decode()
    assert "Not confirmed yet" in profile
    assert f'action="{SEND_AGAIN}"' in profile and "Send the link again" in profile

    for _ in range(3):
        sent = client.post(SEND_AGAIN, follow=True).content.decode()
        assert "We sent a link to alice@example.com to confirm it is yours." in sent
    refused = client.post(SEND_AGAIN, follow=True).content.decode()
    assert "Too many links have been asked for. Try again in 60 minutes." in refused

    sign_up(Client(), "bob")  # mailed after the refused one would have been
    smtp_inbox.wait_for(4)
    mails = smtp_inbox.to("alice@example.com")
    assert len(mails) == 3
    assert Client().get(mails[-1].link_path()).status_code == 200
    assert User.objects.get(username="alice").email_is_confirmed
    assert "Send the link again" not in client.get(PROFILE).content.decode()


def test_a_guest_saving_its_account_gets_a_link_to_its_new_address(client, smtp_inbox):
    guest = guest_create(nickname="Dave")
    client.force_login(guest)
    saved = client.post(
        reverse("accounts:upgrade"),
        {"username": "dave", "email": "dave@example.com", "password1": PASSWORD,
         "password2": PASSWORD},
        follow=True,
    )  # fmt: skip
    assert "We sent a link to dave@example.com" in saved.content.decode()
    [mail] = smtp_inbox.wait_for(1)
    assert mail.recipients == ("dave@example.com",)
    assert Client().get(mail.link_path()).status_code == 200
    assert User.objects.get(pk=guest.pk).email_is_confirmed


def test_an_unconfirmed_address_gets_no_reset_mail_until_it_is_confirmed(client, smtp_inbox):
    sign_up(client, "alice")
    [confirmation] = smtp_inbox.wait_for(1)
    forgot = reverse("accounts:password_reset")
    Client().post(forgot, {"email": "alice@example.com"})
    sign_up(Client(), "bob")  # a mail sent after the refused reset's would have been
    smtp_inbox.wait_for(2)
    assert [mail.subject for mail in smtp_inbox.to("alice@example.com")] == [
        "Confirm your address for Felt"
    ]

    Client().get(confirmation.link_path())
    Client().post(forgot, {"email": "alice@example.com"})
    reset = smtp_inbox.wait_for(3)[-1]
    assert reset.recipients == ("alice@example.com",)
    assert reset.subject == "Your new Felt password"


def test_staff_see_whether_an_address_is_confirmed_but_cannot_confirm_it(client, make_user):
    alice = make_user("alice")
    alice.confirmed_email, alice.email_confirmed_at = alice.email, timezone.now()
    alice.save()
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    change = reverse("admin:accounts_user_change", args=[alice.pk])
    page = client.get(change).content.decode()
    assert "Confirmed email" in page and "alice@example.com" in page
    assert 'name="confirmed_email"' not in page  # shown, not editable

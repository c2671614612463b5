"""A member closes their own account from the profile: the password is asked and
throttled, what they hold in play is released as the admin's deletion releases it,
every ledger row stays and adds up, every log-in ends, and others' histories keep
the hands under an anonymous label."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse

from accounts.data_export import export_path
from accounts.models import DataExport, PointsAccount, PointsEntry, User
from accounts.points import points_balance, points_move
from tables.models import Hand, HandPlayer, Seat
from tests.accounts.test_account_deletion import chips_add_up, signed_up, total
from tests.accounts.test_data_export import play_hand, ready_now, request_export
from tests.conftest import PASSWORD
from tests.support.tables import fast_tables  # noqa: F401 - no pause between hands
from tests.tables.helpers import friends_table
from tests.tournaments.helpers import moved_for, register, sng
from tournaments.clubs import services as club_services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

CLOSE = reverse("accounts:close")


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_profile_leads_to_a_page_that_says_what_closing_does(make_user):
    client = signed_in(make_user("alice"))
    assert CLOSE in client.get(reverse("accounts:profile")).content.decode()
    page = client.get(CLOSE).content.decode()
    assert "cannot be undone" in page and "Closed account #" in page
    assert 'name="password"' in page


def test_a_wrong_password_changes_nothing(make_user):
    alice = signed_up(make_user, "alice")
    client = signed_in(alice)
    response = client.post(CLOSE, {"password": "not-my-password"})
    assert response.status_code == 200
    assert "That is not your password. Your account is still open." in response.content.decode()
    assert User.objects.filter(pk=alice.pk, is_active=True).exists()
    assert points_balance(user=alice) == 10_000
    assert client.get(reverse("accounts:profile")).status_code == 200, "still signed in"


def test_password_guesses_are_throttled_like_log_in(make_user, settings):
    alice = make_user("alice")
    client = signed_in(alice)
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        client.post(CLOSE, {"password": "guess"})
    blocked = client.post(CLOSE, {"password": "guess"})
    assert blocked.status_code == 429
    assert "Too many failed log-in attempts" in blocked.content.decode()
    right = client.post(CLOSE, {"password": PASSWORD})
    assert right.status_code == 429, "while blocked the password is not even checked"
    assert User.objects.filter(pk=alice.pk).exists()
    refused = Client().post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert "Too many failed log-in attempts" in refused.content.decode(), "one count for both"


def test_closing_releases_what_was_held_keeps_every_ledger_row_and_logs_out_everywhere(
    make_user, django_capture_on_commit_callbacks
):
    alice, bob, carol = (signed_up(make_user, name) for name in ("alice", "bob", "carol"))
    points_move(user=alice, amount=500, reason=PointsEntry.Reason.GRANT)
    club = club_services.club_create(user=alice, name="Thursday club")
    club_services.club_join(slug=club.slug, user=bob, token=club.invite_token)
    waiting = register(sng(structure="hyper", buy_in=100), [alice])
    table = friends_table(alice, bob, carol, name="Between hands")
    play_hand(table)
    export = ready_now(request_export(signed_in(alice)))
    rows = set(PointsEntry.objects.filter(user=alice).values_list("pk", flat=True))
    elsewhere = signed_in(alice)  # another browser of hers

    client = signed_in(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(CLOSE, {"password": PASSWORD}, follow=True)

    assert "Your account is closed" in response.content.decode()
    assert not User.objects.filter(pk=alice.pk).exists()
    assert SESSION_KEY not in client.session, "this browser is logged out"
    assert elsewhere.get(reverse("accounts:profile")).status_code == 302, "and every other"
    assert not Client().login(username="alice", password=PASSWORD)
    # Released as the admin's deletion releases: seat, registration, club.
    assert not Seat.objects.filter(table=table, user__isnull=True).exists()
    assert {s.user.username for s in Seat.objects.filter(table=table)} == {"bob", "carol"}
    assert chips_add_up(table)
    assert not waiting.entries.exists() and moved_for(waiting) == 0, "refunded"
    assert {m.user.username: m.role for m in club.memberships.all()} == {"bob": "owner"}
    # Every ledger row stays, with no member; the rest still add up to the balances.
    departed = PointsEntry.objects.filter(user__isnull=True)
    assert rows < set(departed.values_list("pk", flat=True)), "her rows and the refund's"
    assert total(departed) == 10_000 + 500, "what she held when she left"
    assert total(PointsEntry.objects.filter(user__isnull=False)) == total(
        PointsAccount.objects.all(), "balance"
    )
    assert not DataExport.objects.exists()
    assert not export_path(export).exists()


def test_others_see_an_anonymous_label_in_their_histories(make_user):
    alice, bob = signed_up(make_user, "alice"), signed_up(make_user, "bob")
    alice.display_name = "Lucky Lou"
    alice.save()
    entry = register(sng(structure="hyper", buy_in=100), [alice]).entries.get()
    hand = play_hand(friends_table(alice, bob, seat_count=2))

    signed_in(alice).post(CLOSE, {"password": PASSWORD})

    bobs = signed_in(bob)
    detail = bobs.get(reverse("api:hand_detail", args=[hand.pk])).json()
    label = next(p["name"] for p in detail["players"] if p["name"] != "bob")
    assert label.startswith("Closed account #") and label[len("Closed account #") :].isdigit()
    assert [p["username"] for p in detail["players"] if p["name"] == label] == [None]
    for view in ("api:hand_phh", "api:hand_pokerstars"):
        text = bobs.get(reverse(view, args=[hand.pk])).content.decode()
        assert label in text and "Lucky Lou" not in text and "alice" not in text
    page = bobs.get(reverse("tables:hand_history_list")).content.decode()
    assert "Lucky Lou" not in page
    assert HandPlayer.objects.filter(hand=hand, name=label).count() == 1
    assert not Entry.objects.filter(pk=entry.pk).exists(), "refunded before it started"


def test_a_guest_closes_its_account_without_a_password(make_user):
    guest = make_user("guest-0badcafe", is_guest=True, display_name="Lucky", email="")
    guest.set_unusable_password()
    guest.save()
    client = signed_in(guest)
    page = client.get(CLOSE).content.decode()
    assert 'name="password"' not in page and "no password" in page
    response = client.post(CLOSE, {}, follow=True)
    assert "Your account is closed" in response.content.decode()
    assert not User.objects.filter(pk=guest.pk).exists()


def test_closing_needs_a_post_with_the_csrf_token(make_user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("alice"))
    assert client.post(CLOSE, {"password": PASSWORD}).status_code == 403
    assert User.objects.filter(username="alice").exists()


@pytest.mark.parametrize(
    "name", ["Closed account #482913", "closed ACCOUNT", "Сlosed account 7", "Former member"]
)
def test_nobody_may_go_by_the_label_of_a_closed_account(make_user, name):
    client = signed_in(make_user("mallory"))
    response = client.post(reverse("accounts:profile"), {"display_name": name})
    assert "Felt shows that name for accounts that are gone" in response.content.decode()
    assert User.objects.get(username="mallory").display_name == ""


@pytest.mark.django_db(transaction=True)
def test_a_worker_writes_the_stored_history_again_with_the_label(request, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    hand = play_hand(friends_table(alice, bob, seat_count=2))
    assert '"alice"' in Hand.objects.get(pk=hand.pk).phh
    request.getfixturevalue("celery_worker")  # now: it would deal the next hand itself

    assert signed_in(alice).post(CLOSE, {"password": PASSWORD}).status_code == 302

    label = HandPlayer.objects.get(hand=hand, user__isnull=True).name
    ends = time.monotonic() + 20
    while label not in Hand.objects.get(pk=hand.pk).phh and time.monotonic() < ends:
        time.sleep(0.1)
    stored = Hand.objects.get(pk=hand.pk).phh
    assert f'"{label}"' in stored and "alice" not in stored

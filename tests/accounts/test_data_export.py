"""A member downloads their data: asked for on the profile, built by a real Celery
worker, a zip of the account, ledger, clubs, entries and hands as they saw them,
downloaded once, by its owner only, before its link expires."""

from __future__ import annotations

import io
import json
import stat
import time
import zipfile
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

import engine
from accounts import data_export
from accounts.models import DataExport, PointsEntry
from accounts.points import points_account_open, points_move
from accounts.tasks import expire_data_exports
from tables.models import Hand
from tests.support.tables import fast_tables  # noqa: F401 - no pause between hands
from tests.tables.helpers import act, deal, friends_table, state_of, user_to_act
from tests.tournaments.helpers import register, sng
from tournaments.clubs import services as club_services

PROFILE = reverse("accounts:profile")


def signed_up(make_user: Any, username: str) -> Any:
    member = make_user(username)
    points_account_open(user=member)
    return member


def play_hand(table: Any, *, folder: Any = None) -> Hand:
    """One hand: ``folder`` folds to the first bet they face (the others bet); without
    one, everyone checks or calls to the showdown."""
    deal(table)
    while not state_of(table).is_over:
        legal = engine.legal_actions(state_of(table))
        if folder is not None and user_to_act(table) == folder:
            act(table, "fold" if legal.can_fold else "check")
        elif folder is not None and legal.can_raise:  # so that the folder faces a bet
            act(table, "raise", legal.min_raise_to)
        else:
            act(table, "check" if legal.can_check else "call")
    return Hand.objects.filter(table=table).latest("number")


def hole_cards(hand: Hand, user: Any) -> list[str]:
    """From the stored events (every card): what ``user`` was dealt in ``hand``."""
    state = engine.replay([engine.event_from_dict(e) for e in hand.events])
    seat = hand.players.get(user=user).seat
    return [engine.card_str(card) for card in state.hole_cards(seat)]


def seen_by(viewer: Any, hand: Hand, player: Any) -> bool:
    """Whether ``viewer``'s history of ``hand`` (the API's, per viewer) shows the cards
    of ``player``."""
    api = APIClient()
    api.force_authenticate(viewer)
    body = api.get(f"/api/hands/{hand.pk}/").json()
    seat = hand.players.get(user=player).seat
    return any(p["seat"] == seat and p["hole_cards"] for p in body["players"])


def signed_in(user: Any, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def wait_until_ready(client: Client, seconds: float = 30) -> dict[str, Any]:
    """The profile's question, asked until the worker has built the zip."""
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        body = client.get(reverse("accounts:data_status")).json()
        if body["status"] != "preparing":
            return body
        time.sleep(0.2)
    raise AssertionError("the worker did not build the zip")


@pytest.mark.django_db(transaction=True)
def test_the_zip_holds_the_account_ledger_clubs_entries_and_hands_as_seen(request, make_user):
    alice, bob = signed_up(make_user, "alice"), signed_up(make_user, "bob")
    alice.display_name = "Lucky Lou"
    alice.save()
    points_move(user=alice, amount=250, reason=PointsEntry.Reason.GRANT)
    club = club_services.club_create(user=bob, name="Thursday club")
    club_services.club_join(slug=club.slug, user=alice, token=club.invite_token)
    waiting = register(sng(structure="hyper", buy_in=100), [alice])
    table = friends_table(alice, bob, seat_count=2)
    folded = play_hand(table, folder=bob)
    shown = play_hand(table)
    bobs_folded_cards, bobs_shown_cards = hole_cards(folded, bob), hole_cards(shown, bob)
    # The worker starts once the hands are played: it would deal the next one itself.
    request.getfixturevalue("celery_worker")

    client = signed_in(alice, enforce_csrf_checks=True)
    page = client.get(PROFILE)
    assert "Download my data" in page.content.decode()
    refused = client.post(reverse("accounts:data_request"))
    assert refused.status_code == 403, "no CSRF token, no export"
    assert not DataExport.objects.exists()
    token = page.cookies["csrftoken"].value if "csrftoken" in page.cookies else ""
    token = token or client.cookies["csrftoken"].value
    asked = client.post(reverse("accounts:data_request"), HTTP_X_CSRFTOKEN=token)
    assert asked.status_code == 302

    ready = wait_until_ready(client)
    assert ready["status"] == "ready"
    export = DataExport.objects.get(user=alice)
    path = data_export.export_path(export)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600, "private: Felt's own user only"
    assert "Download your data (zip)" in client.get(PROFILE).content.decode()

    bobs_try = signed_in(bob).get(ready["url"])
    assert bobs_try.status_code == 404, "another member's link is a 404"
    response = client.get(ready["url"])
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="felt-data-alice-')
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    assert client.get(ready["url"]).status_code == 404, "given once"
    assert not path.exists(), "deleted once downloaded"

    files = set(archive.namelist())
    assert {"README.txt", "account.json", "points.json", "clubs.json"} <= files
    assert {"tournaments.json", "hands.phhs", "hands.txt"} <= files
    account = json.loads(archive.read("account.json"))
    assert (account["username"], account["display_name"]) == ("alice", "Lucky Lou")
    assert account["email"] == "alice@example.com" and account["date_joined"]
    points = json.loads(archive.read("points.json"))
    assert [(row["reason"], row["amount"]) for row in points] == [
        ("Tournament buy-in", -100),
        ("Admin's grant", 250),
        ("Welcome grant", 10_000),
    ]
    clubs = json.loads(archive.read("clubs.json"))
    assert [(c["club"], c["role"], c["status"]) for c in clubs] == [
        ("Thursday club", "Member", "Member")
    ]
    entries = json.loads(archive.read("tournaments.json"))
    assert [(e["tournament"], e["buy_in"], e["place"], e["prize"]) for e in entries] == [
        (waiting.pk, 100, None, 0)
    ]

    phh = archive.read("hands.phhs").decode()
    stars = archive.read("hands.txt").decode()
    assert phh.count("_felt_hand_id") == 2 and stars.count("Dealt to Lucky Lou") == 2
    folded_phh, shown_phh = phh.split("\n[2]\n")
    folded_stars, shown_stars = stars.split("\n\n\n", 1)
    for card in bobs_folded_cards:  # bob folded: alice never saw his cards
        assert card not in folded_phh and card not in folded_stars
    assert "????" in folded_phh
    # At the showdown bob's hand was shown, or mucked when it lost after alice's
    # (rule 15): the zip holds it exactly when alice's own history shows it.
    if seen_by(alice, shown, bob):
        assert f"bob: shows [{' '.join(bobs_shown_cards)}]" in shown_stars
        assert "".join(bobs_shown_cards) in shown_phh
    else:
        assert any(
            line.startswith("Seat") and "bob" in line and line.endswith("mucked")
            for line in shown_stars.splitlines()
        )
        for card in bobs_shown_cards:
            assert card not in shown_phh and card not in shown_stars


def request_export(client: Client) -> DataExport:
    client.post(reverse("accounts:data_request"))
    return DataExport.objects.filter(user_id=client.session["_auth_user_id"]).first()


def ready_now(export: DataExport) -> DataExport:
    """Built here rather than by a worker (the tests above use one)."""
    assert data_export.export_build(export_id=export.pk)
    export.refresh_from_db()
    return export


@pytest.mark.django_db
def test_the_link_stops_working_when_it_expires_and_the_file_goes(make_user, settings):
    alice = signed_up(make_user, "alice")
    client = signed_in(alice)
    export = ready_now(request_export(client))
    path = data_export.export_path(export)
    url = reverse("accounts:data_download", args=[export.key])
    later = timezone.now() + timedelta(hours=settings.DATA_EXPORT_HOURS, minutes=1)
    with time_machine.travel(later, tick=False):
        assert client.get(url).status_code == 404
    assert not path.exists()
    assert DataExport.objects.get(pk=export.pk).status == "expired"
    assert "expired unused" in client.get(PROFILE).content.decode()


@pytest.mark.django_db
def test_the_periodic_sweep_deletes_expired_files(make_user, settings):
    export = ready_now(request_export(signed_in(signed_up(make_user, "alice"))))
    path = data_export.export_path(export)
    assert expire_data_exports() == 0 and path.exists()
    later = timezone.now() + timedelta(hours=settings.DATA_EXPORT_HOURS, minutes=1)
    with time_machine.travel(later, tick=False):
        assert expire_data_exports() == 1
    assert not path.exists()


@pytest.mark.django_db
def test_one_export_at_a_time_and_a_few_a_day(make_user, settings):
    settings.DATA_EXPORTS_PER_DAY = 2
    alice = signed_up(make_user, "alice")
    client = signed_in(alice)
    first = request_export(client)
    section = client.get(PROFILE).content.decode()
    assert "Preparing your data… The link appears here when it is ready." in section
    assert "Download my data" not in section
    again = client.post(reverse("accounts:data_request"), follow=True).content.decode()
    assert "already being prepared" in again
    assert DataExport.objects.filter(user=alice).count() == 1
    ready_now(first)
    assert client.get(reverse("accounts:data_download", args=[first.key])).status_code == 200
    second = request_export(client)
    assert second.pk != first.pk
    ready_now(second)
    client.get(reverse("accounts:data_download", args=[second.key]))
    third = client.post(reverse("accounts:data_request"), follow=True).content.decode()
    assert "2 times a day" in third
    assert DataExport.objects.filter(user=alice).count() == 2
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1), tick=False):
        assert request_export(client).status == "preparing"


@pytest.mark.django_db
def test_a_guest_takes_its_hands_too(client, make_user):
    guest = make_user("guest-0badcafe", is_guest=True, display_name="Lucky", email="")
    client.force_login(guest)
    assert "Download my data" in client.get(PROFILE).content.decode()
    export = ready_now(request_export(client))
    response = client.get(reverse("accounts:data_download", args=[export.key]))
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    assert json.loads(archive.read("account.json"))["is_guest"] is True


@pytest.mark.django_db
def test_a_staff_members_hands_are_seen_from_their_seat_not_with_every_card(make_user):
    root, bob = make_user("root", is_staff=True), make_user("bob")
    folded = play_hand(friends_table(root, bob, seat_count=2), folder=bob)
    export = ready_now(request_export(signed_in(root)))
    response = signed_in(root).get(reverse("accounts:data_download", args=[export.key]))
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    texts = archive.read("hands.phhs").decode() + archive.read("hands.txt").decode()
    assert "????" in texts
    for card in hole_cards(folded, bob):
        assert card not in texts

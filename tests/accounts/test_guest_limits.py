"""A guest plays at friends' tables and nowhere else: every other way in says so (403,
no 500) and changes nothing, whether it is a page, the API, a socket or a service."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from accounts.guests import GUESTS_REFUSED, guest_create
from accounts.models import ApiToken, User
from accounts.tokens import TokenRefused, hash_key, token_create, token_user
from config.asgi import application
from config.platform.close_codes import CloseCode
from tables import errors as table_errors
from tables import services as table_services
from tables.links import table_link
from tables.models import Seat, Table
from tests.tables.sockets import HEADERS, close_code_after_accepting, session_cookie
from tests.tables.sockets import Client as TableClient
from tournaments import services as tournament_services
from tournaments.clubs import services as club_services
from tournaments.errors import GuestsRefused
from tournaments.models import Club, Entry, Membership, Tournament


@pytest.fixture
def alice(make_user: Any) -> User:
    return make_user("alice")


@pytest.fixture
def guest(db: None) -> User:
    return guest_create(nickname="Dave")


@pytest.fixture
def as_guest(client: Client, guest: User) -> Client:
    client.force_login(guest)
    return client


def refused_page(response: Any) -> None:
    assert response.status_code == 403
    if response["Content-Type"].startswith("application/json"):
        assert response.json()["code"] == "guest"
        assert response.json()["message"] == GUESTS_REFUSED
    else:
        page = response.content.decode()
        assert GUESTS_REFUSED.replace("'", "&#x27;") in page
        assert f'href="{reverse("accounts:profile")}#save-account"' in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/tables/new/"),
        ("post", "/tables/new/"),
        ("get", "/tables/practice/"),
        ("post", "/tables/practice/"),
        ("get", "/tournaments/"),
        ("post", "/tournaments/practice/"),
        ("get", "/clubs/"),
        ("get", "/accounts/password/"),
        ("post", "/accounts/tokens/"),
        ("get", "/api/me/"),
        ("get", "/api/hands/"),
        ("get", "/api/tournaments/"),
        ("post", "/api/clubs/"),
        ("get", "/admin/"),
    ],
)
def test_a_guest_is_refused_every_page_but_friends_tables(as_guest, alice, method, path):
    response = getattr(as_guest, method)(path, {"name": "Guest's own", "bots": "1"})

    refused_page(response)
    assert not Table.objects.exists()
    assert not Tournament.objects.exists()
    assert not Club.objects.exists()
    assert not ApiToken.objects.exists()


@pytest.mark.django_db
def test_a_guest_is_refused_a_tournament_and_a_club_by_their_links(as_guest, guest, alice):
    club = club_services.club_create(user=alice, name="Thursday Crew")
    sng = tournament_services.sng_open(structure="turbo", buy_in=0)

    for method, path in [
        ("get", f"/tournaments/{sng.pk}/"),
        ("post", f"/tournaments/{sng.pk}/register/"),
        ("post", f"/api/tournaments/{sng.pk}/register/"),
        ("get", f"/clubs/{club.slug}/"),
        ("get", f"/clubs/{club.slug}/join/{club.invite_token}/"),
        ("post", f"/clubs/{club.slug}/join/{club.invite_token}/"),
        ("post", f"/clubs/{club.slug}/ask/"),
        ("post", f"/api/clubs/{club.slug}/join/"),
    ]:
        refused_page(getattr(as_guest, method)(path, {"token": club.invite_token}))

    assert not Entry.objects.filter(user=guest).exists()
    assert not Membership.objects.filter(user=guest).exists()


@pytest.mark.django_db
def test_a_guest_is_refused_practice_and_tournament_tables(as_guest, alice):
    practice = table_services.table_create_practice(user=alice, bots=1)
    _, sng_table = tournament_services.practice_sng_start(user=alice)

    for table in (practice, sng_table):
        refused_page(as_guest.get(reverse("tables:table_detail", args=[table.pk])))


@pytest.mark.django_db
def test_a_guest_reaches_the_lobby_a_friends_table_its_hands_and_profile(as_guest, alice):
    table = table_services.table_create(owner=alice, name="Friday game")

    assert as_guest.get(table_link(table)).status_code == 200  # the link the host shared
    for name, args in [
        ("lobby", []),
        ("tables:table_detail", [table.pk]),  # again, without its key: it came by the link
        ("tables:hand_history_list", []),
        ("accounts:profile", []),
    ]:
        assert as_guest.get(reverse(name, args=args)).status_code == 200
    lobby = as_guest.get(reverse("lobby")).content.decode()
    assert "Open a table" not in lobby
    assert "You are playing as a guest" in lobby


@pytest.mark.django_db
def test_the_services_refuse_a_guest_themselves(guest, alice):
    practice = table_services.table_create_practice(user=alice, bots=1)
    club = club_services.club_create(user=alice, name="Thursday Crew")
    sng = tournament_services.sng_open(structure="turbo", buy_in=0)

    with pytest.raises(table_errors.GuestsRefused):
        table_services.table_create(owner=guest, name="Guest's own")
    with pytest.raises(table_errors.GuestsRefused):
        table_services.seat_take(table_id=practice.pk, user=guest, seat=1)
    with pytest.raises(GuestsRefused):
        tournament_services.tournament_register(tournament_id=sng.pk, user=guest)
    with pytest.raises(GuestsRefused):
        tournament_services.practice_sng_start(user=guest)
    with pytest.raises(GuestsRefused):
        club_services.club_create(user=guest, name="Guests' club")
    with pytest.raises(GuestsRefused):
        club_services.club_join(slug=club.slug, user=guest, token=club.invite_token)
    with pytest.raises(GuestsRefused):
        club_services.club_ask(slug=club.slug, user=guest)
    with pytest.raises(TokenRefused, match="Guest accounts play at friends' tables only"):
        token_create(user=guest, name="tracker")

    assert not Seat.objects.filter(user=guest).exists()
    assert not Entry.objects.filter(user=guest).exists()
    assert not Membership.objects.filter(user=guest).exists()
    assert Table.objects.filter(owner=guest).count() == 0


@pytest.mark.django_db
def test_a_token_made_for_a_guest_in_the_admin_opens_nothing(guest):
    key = "felt_" + "x" * 43
    ApiToken.objects.create(user=guest, name="made by hand", prefix=key[:9], key_hash=hash_key(key))

    assert token_user(key) is None
    response = Client().get("/api/hands/", HTTP_AUTHORIZATION=f"Bearer {key}")
    assert response.status_code in (401, 403)


@pytest.mark.django_db
def test_the_admins_grant_skips_guests(admin_client, guest, alice):
    response = admin_client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "grant_points", "_selected_action": [guest.pk, alice.pk], "amount": "500"},
        follow=True,
    )

    assert "Skipped 1 guest(s): guests hold no points." in response.content.decode()
    assert not guest.points_accounts.exists()
    assert alice.points_accounts.get().balance == 10_000 + 500


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_database_connections")
async def test_a_guests_socket_opens_at_a_friends_table_and_is_refused_at_the_others(make_user):
    def tables() -> tuple[User, int, int, int]:
        alice = make_user("alice")
        friends = table_services.table_create(owner=alice, name="Friday game")
        practice = table_services.table_create_practice(user=alice, bots=1)
        _, sng_table = tournament_services.practice_sng_start(user=alice)
        return guest_create(nickname="Dave"), friends.pk, practice.pk, sng_table.pk

    guest, friends, practice, sng_table = await sync_to_async(tables)()
    headers = [*HEADERS, (b"cookie", await session_cookie(guest))]

    for refused_table in (practice, sng_table):
        socket = WebsocketCommunicator(application, f"/ws/tables/{refused_table}/", headers=headers)
        assert await close_code_after_accepting(socket) == CloseCode.MEMBERS_ONLY
    tab = await TableClient.open(guest, friends)
    await tab.send({"type": "sit", "seat": 1})
    snapshot = await tab.snapshot()
    assert [seat.get("name") for seat in snapshot["seats"] if seat["occupied"]] == ["Dave"]
    await tab.close()

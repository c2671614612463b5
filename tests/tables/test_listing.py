"""Private by default: a friends' table is reachable by its link, and listed in the
lobby only when its host chooses; an unlisted table shows, in the lobby and the API,
to its players alone (owner, host, who sits there, who played or bought in there)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tables import services
from tables.errors import NotHost
from tables.links import table_link
from tables.models import ChipMovement, HandPlayer, Table
from tests.tables.helpers import act, deal, friends_table

pytestmark = pytest.mark.django_db

NEW_TABLE = {
    "name": "Secret game",
    "seat_count": "6",
    "small_blind": "10",
    "big_blind": "20",
    "starting_stack": "1500",
    "action_seconds": "20",
}


def lobby_of(client: Client, user: Any) -> str:
    client.force_login(user)
    return client.get(reverse("lobby")).content.decode()


def link(table: Table) -> str:
    return reverse("tables:table_detail", args=[table.pk])


def test_a_table_opened_from_the_form_is_left_out_of_other_members_lobbies(
    client: Client, alice: Any, bob: Any
) -> None:
    client.force_login(alice)
    client.post(reverse("tables:table_new"), NEW_TABLE)
    table = Table.objects.get(name="Secret game")

    page = lobby_of(Client(), bob)
    assert "Secret game" not in page
    assert link(table) not in page
    assert not table.is_listed


def test_a_table_the_host_chose_to_list_is_in_every_members_lobby(
    client: Client, alice: Any, bob: Any
) -> None:
    client.force_login(alice)
    client.post(reverse("tables:table_new"), {**NEW_TABLE, "is_listed": "on"})
    table = Table.objects.get(name="Secret game")
    assert table.is_listed

    page = lobby_of(Client(), bob)
    assert "Secret game" in page
    assert link(table) in page
    assert "by link only" not in page


def test_the_form_offers_the_listing_unticked(client: Client, alice: Any) -> None:
    client.force_login(alice)
    page = client.get(reverse("tables:table_new")).content.decode()
    assert "List this table in the lobby" in page
    box = re.search(r'<input[^>]*name="is_listed"[^>]*>', page)
    assert box is not None and 'type="checkbox"' in box[0]
    assert "checked" not in box[0]


def test_the_link_of_an_unlisted_table_still_opens_it(client: Client, alice: Any, bob: Any) -> None:
    table = friends_table(alice, name="Secret game")
    client.force_login(bob)
    member = client.get(table_link(table))
    assert member.status_code == 200
    assert b"js/table.js" in member.content

    guest = Client().get(table_link(table))
    assert guest.status_code == 200
    assert b"Join Secret game" in guest.content


def test_an_unlisted_table_shows_in_the_lobby_of_each_of_its_players(
    make_user: Any, alice: Any, bob: Any, carol: Any
) -> None:
    dave, erin, frank, stranger = (make_user(n) for n in ("dave", "erin", "frank", "zed"))
    table = friends_table(alice, bob, carol, name="Secret game", seat_count=6)
    deal(table)
    act(table, "fold")
    act(table, "fold")  # the hand is over: alice, bob and carol played it
    assert HandPlayer.objects.filter(hand__table=table, user=carol).exists()
    services.seat_leave(table_id=table.pk, user=carol)  # played here, gone since
    services.seat_take(table_id=table.pk, user=dave, seat=3)
    services.seat_leave(table_id=table.pk, user=dave)  # bought in and left, no hand
    assert ChipMovement.objects.filter(table=table, user=dave).exists()
    services.host_hand_over(table_id=table.pk, user=alice, seat=1)  # bob hosts
    services.seat_leave(table_id=table.pk, user=bob)  # the host need not sit
    services.seat_take(table_id=table.pk, user=erin, seat=4)  # sits now

    for player in (alice, bob, carol, dave, erin):
        page = lobby_of(Client(), player)
        assert "Secret game" in page, f"{player.username} is one of its players"
        assert "by link only" in page
    for outsider in (frank, stranger):
        assert "Secret game" not in lobby_of(Client(), outsider)


def test_the_host_lists_and_unlists_the_table(client: Client, alice: Any, bob: Any) -> None:
    table = friends_table(alice, name="Secret game")
    services.table_set_listed(table_id=table.pk, user=alice, listed=True)
    assert "Secret game" in lobby_of(client, bob)

    services.table_set_listed(table_id=table.pk, user=alice, listed=False)
    assert "Secret game" not in lobby_of(client, bob)


def test_only_the_host_may_list_the_table(alice: Any, bob: Any) -> None:
    table = friends_table(alice, bob, name="Secret game")
    with pytest.raises(NotHost):
        services.table_set_listed(table_id=table.pk, user=bob, listed=True)
    assert not Table.objects.get(pk=table.pk).is_listed


def test_a_practice_table_is_in_no_one_elses_lobby(client: Client, alice: Any, bob: Any) -> None:
    table = services.table_create_practice(user=alice, bots=2)
    assert link(table) not in lobby_of(client, bob)


def test_the_tables_api_lists_a_table_to_its_players_only(alice: Any, bob: Any, carol: Any) -> None:
    unlisted = friends_table(alice, name="Secret game")
    friends_table(alice, name="Open game", is_listed=True)
    services.seat_take(table_id=unlisted.pk, user=bob, seat=1)
    services.host_hand_over(table_id=unlisted.pk, user=alice, seat=1)
    services.seat_leave(table_id=unlisted.pk, user=bob)  # still the host, not seated

    def names(user: Any) -> set[str]:
        api = APIClient()
        api.force_authenticate(user)
        response = api.get(reverse("api:table_list"))
        assert response.status_code == 200
        return {row["name"] for row in response.json()["results"]}

    assert names(alice) == {"Secret game", "Open game"}
    assert names(bob) == {"Secret game"}, "the host sees the table they run"
    assert names(carol) == set(), "listing a table does not put it in others' API"

"""The table pages: opening a friends' table, a practice table, the table page, the lobby list."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tables import services
from tables.links import table_link
from tables.models import Seat, Table

pytestmark = pytest.mark.django_db

GOOD_TABLE = {
    "name": "Friday game",
    "seat_count": "4",
    "small_blind": "25",
    "big_blind": "50",
    "starting_stack": "2000",
    "action_seconds": "15",
}


def signed_in(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


def with_changes(**changes: str) -> dict[str, str]:
    return {**GOOD_TABLE, **changes}


@pytest.mark.parametrize("name", ["tables:table_new", "tables:table_practice"])
def test_the_table_forms_send_visitors_to_log_in(client: Client, name: str) -> None:
    response = client.get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_a_practice_tables_page_sends_visitors_to_log_in(client: Client, alice: Any) -> None:
    table = services.table_create_practice(user=alice, bots=1)
    response = client.get(reverse("tables:table_detail", args=[table.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_a_friends_tables_link_offers_visitors_a_guest_seat_or_a_log_in(
    client: Client, alice: Any
) -> None:
    table = services.table_create(owner=alice, name="Friday game")
    path = reverse("tables:table_detail", args=[table.pk])
    page = client.get(table_link(table)).content.decode()
    assert "Join as a guest" in page
    assert f"{reverse('accounts:login')}?next={path}" in page


def test_opening_a_table_creates_it_and_shows_it(client: Client, alice: Any) -> None:
    response = signed_in(client, alice).post(reverse("tables:table_new"), GOOD_TABLE)
    table = Table.objects.get()
    assert response.status_code == 302
    assert response["Location"] == table_link(table), "the link to share, in the address bar"
    assert (table.name, table.owner, table.kind) == ("Friday game", alice, Table.Kind.FRIENDS)
    assert (table.seat_count, table.small_blind, table.big_blind) == (4, 25, 50)
    assert (table.starting_stack, table.action_seconds) == (2000, 15)
    assert not table.seats.exists(), "the owner chooses a seat on the table page"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"seat_count": "1"}, "seat_count"),
        ({"seat_count": "10"}, "seat_count"),
        ({"small_blind": "0"}, "small_blind"),
        ({"small_blind": "60", "big_blind": "50"}, "big_blind"),
        ({"starting_stack": "60"}, "starting_stack"),
        ({"action_seconds": "1000"}, "action_seconds"),
        ({"name": ""}, "name"),
    ],
)
def test_the_new_table_form_refuses_impossible_settings(
    client: Client, alice: Any, changes: dict[str, str], field: str
) -> None:
    response = signed_in(client, alice).post(reverse("tables:table_new"), with_changes(**changes))
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert not Table.objects.exists()


def test_the_new_table_form_needs_its_csrf_token(alice: Any) -> None:
    client = signed_in(Client(enforce_csrf_checks=True), alice)
    assert client.post(reverse("tables:table_new"), GOOD_TABLE).status_code == 403
    assert not Table.objects.exists()
    page = client.get(reverse("tables:table_new"))
    token = page.context["csrf_token"]
    response = client.post(
        reverse("tables:table_new"), {**GOOD_TABLE, "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302
    assert Table.objects.count() == 1


def test_the_practice_page_seats_the_player_against_bots(client: Client, alice: Any) -> None:
    response = signed_in(client, alice).post(reverse("tables:table_practice"), {"bots": "3"})
    table = Table.objects.get()
    assert response["Location"] == reverse("tables:table_detail", args=[table.pk])
    assert table.kind == Table.Kind.PRACTICE
    seats = list(Seat.objects.filter(table=table))
    assert [seat.user for seat in seats if not seat.is_bot] == [alice]
    assert sum(seat.is_bot for seat in seats) == 3


@pytest.mark.parametrize("bots", ["0", "6", "many"])
def test_the_practice_page_refuses_an_impossible_number_of_bots(
    client: Client, alice: Any, bots: str
) -> None:
    response = signed_in(client, alice).post(reverse("tables:table_practice"), {"bots": bots})
    assert response.status_code == 200
    assert "bots" in response.context["form"].errors
    assert not Table.objects.exists()


def test_the_table_page_loads_the_client_for_that_table(client: Client, alice: Any) -> None:
    table = services.table_create(owner=alice, name="Friday game")
    url = reverse("tables:table_detail", args=[table.pk])
    page = signed_in(client, alice).get(url).content.decode()
    assert f'data-socket-path="/ws/tables/{table.pk}/"' in page
    assert f'data-table-id="{table.pk}"' in page
    assert "js/table.js" in page and 'type="module"' in page
    assert f'value="http://testserver{table_link(table)}"' in page, "the link to share"
    assert "https://" not in page and 'src="//' not in page, "no CDN"


def test_a_practice_table_page_has_no_link_to_share(client: Client, alice: Any) -> None:
    table = services.table_create_practice(user=alice, bots=2)
    page = signed_in(client, alice).get(reverse("tables:table_detail", args=[table.pk]))
    assert b"js/table.js" in page.content
    assert b"data-share-link" not in page.content


def test_an_unknown_table_is_not_found(client: Client, alice: Any) -> None:
    response = signed_in(client, alice).get(reverse("tables:table_detail", args=[999]))
    assert response.status_code == 404


def test_the_lobby_lists_tables_with_free_seats_but_not_full_ones(
    client: Client, alice: Any, bob: Any
) -> None:
    open_table = services.table_create(owner=alice, name="Open game", seat_count=3, is_listed=True)
    services.seat_take(table_id=open_table.pk, user=alice, seat=0)
    full_table = services.table_create(owner=alice, name="Full game", seat_count=2, is_listed=True)
    services.seat_take(table_id=full_table.pk, user=alice, seat=0)
    services.seat_take(table_id=full_table.pk, user=bob, seat=1)
    page = signed_in(client, bob).get(reverse("lobby")).content.decode()
    assert "Open game" in page
    assert reverse("tables:table_detail", args=[open_table.pk]) in page
    assert "1/3 seated" in page
    assert "Full game" not in page

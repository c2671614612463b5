"""The table socket never trusts the page: an unlisted friends' table's socket admits
its players and whoever opened its link with the key in that browser; anyone else
is closed with 4404, as for a table that does not exist."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from config.asgi import application
from config.platform.close_codes import CloseCode
from tables import services
from tables.links import table_link
from tables.models import Table
from tests.tables.helpers import friends_table
from tests.tables.sockets import HEADERS, close_code_after_accepting, session_cookie
from tests.tables.sockets import Client as Tab

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]


def browser_cookie(client: Client) -> bytes:
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def opened(user: Any, path: str) -> bytes:
    """The session of a browser of ``user``'s (None: not signed in) that opened ``path``."""
    client = Client()
    if user is not None:
        client.force_login(user)
    assert client.get(path).status_code == 200
    return browser_cookie(client)


async def close_code(cookie: bytes, table_id: int) -> int:
    headers = [*HEADERS, (b"cookie", cookie)]
    socket = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    return await close_code_after_accepting(socket)


async def test_a_strangers_socket_is_closed_as_for_no_table(alice: Any, bob: Any) -> None:
    table = await sync_to_async(friends_table)(alice, name="Secret game")
    stranger = await session_cookie(bob)

    assert await close_code(stranger, table.pk) == CloseCode.NOT_FOUND
    assert await close_code(stranger, table.pk + 1000) == CloseCode.NOT_FOUND


async def test_with_the_key_a_member_watches_sits_and_never_sees_the_key(
    alice: Any, bob: Any
) -> None:
    table = await sync_to_async(friends_table)(alice, name="Secret game")
    cookie = await sync_to_async(opened)(bob, table_link(table))

    tab = await Tab.open_with_cookie(cookie, table.pk, "bob")
    await tab.send({"type": "sit", "seat": 1})
    view = await tab.snapshot()

    assert view["your_seat"] == 1
    assert all(table.invite_key not in text for text in tab.texts)
    await tab.close()


async def test_a_guest_made_on_the_keyed_page_sits_over_the_socket(alice: Any) -> None:
    table = await sync_to_async(friends_table)(alice, name="Secret game")

    def join_as_guest() -> bytes:
        visitor = Client()
        visitor.get(table_link(table))
        visitor.post(f"/tables/{table.pk}/guest/", {"nickname": "Eve"})
        return browser_cookie(visitor)

    cookie = await sync_to_async(join_as_guest)()
    tab = await Tab.open_with_cookie(cookie, table.pk, "eve")
    await tab.send({"type": "sit", "seat": 1})
    view = await tab.snapshot()

    seated = [seat.get("name") for seat in view["seats"] if seat["occupied"]]
    assert view["your_seat"] == 1 and "Eve" in seated
    await tab.close()


async def test_a_player_opens_the_socket_from_any_browser_after_a_new_link(
    alice: Any, bob: Any
) -> None:
    table = await sync_to_async(friends_table)(alice, bob, name="Secret game")
    await sync_to_async(services.table_new_invite_key)(table_id=table.pk, user=alice)

    tab = await Tab.open(bob, table.pk, by_link=False)  # a seated player: no key needed
    assert tab.table["your_seat"] == 1
    await tab.close()


async def test_a_new_link_keeps_the_old_links_watchers_and_stops_new_ones(
    alice: Any, bob: Any, make_user: Any
) -> None:
    table = await sync_to_async(friends_table)(alice, name="Secret game")
    came_before = await sync_to_async(opened)(bob, table_link(table))

    await sync_to_async(services.table_new_invite_key)(table_id=table.pk, user=alice)

    def late_with_old_link() -> bytes:
        carol: User = make_user("carol")
        client = Client()
        client.force_login(carol)
        assert client.get(table_link(table)).status_code == 404
        return browser_cookie(client)

    late = await sync_to_async(late_with_old_link)()
    assert await close_code(late, table.pk) == CloseCode.NOT_FOUND
    tab = await Tab.open_with_cookie(came_before, table.pk, "bob")
    assert tab.table["seq"] >= 0
    await tab.close()


async def test_a_listed_tables_socket_is_open_to_any_member(alice: Any, bob: Any) -> None:
    def listed() -> Table:
        table = friends_table(alice, name="Open game")
        services.table_set_listed(table_id=table.pk, user=alice, listed=True)
        return table

    table = await sync_to_async(listed)()
    tab = await Tab.open(bob, table.pk, by_link=False)
    assert tab.table["your_seat"] is None
    await tab.close()

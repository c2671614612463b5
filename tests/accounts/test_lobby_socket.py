"""The lobby websocket through the full ASGI stack and the real Redis channel layer."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tables import services
from tests.support.lobby import next_count, open_lobby, session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


async def test_a_member_is_told_they_are_online(alice):
    socket, connected = await open_lobby(alice)
    assert connected
    assert await next_count(socket) == 1
    await socket.disconnect(timeout=10)


async def test_the_count_follows_others_coming_and_going(alice, bob):
    alice_socket, _ = await open_lobby(alice)
    assert await next_count(alice_socket) == 1

    bob_socket, _ = await open_lobby(bob)
    assert await next_count(bob_socket) == 2
    assert await next_count(alice_socket) == 2

    await bob_socket.disconnect(timeout=10)
    assert await next_count(alice_socket) == 1
    await alice_socket.disconnect(timeout=10)


async def test_an_idle_socket_still_hears_about_newcomers(alice, bob):
    alice_socket, _ = await open_lobby(alice)
    assert await next_count(alice_socket) == 1
    await asyncio.sleep(6)  # longer than redis-py's default 5 s read timeout

    bob_socket, _ = await open_lobby(bob)

    assert await next_count(alice_socket) == 2
    await bob_socket.disconnect(timeout=10)
    await alice_socket.disconnect(timeout=10)


async def test_a_member_with_two_tabs_counts_once(alice):
    first, _ = await open_lobby(alice)
    assert await next_count(first) == 1
    second, _ = await open_lobby(alice)
    assert await next_count(second) == 1
    assert await next_count(first) == 1
    await second.disconnect(timeout=10)
    assert await next_count(first) == 1, "one tab is still open"
    await first.disconnect(timeout=10)


async def test_anonymous_connections_are_closed_with_4401():
    socket, connected = await open_lobby(None)
    assert connected  # accepted, so that the browser sees the close code
    message = await socket.receive_output(timeout=10)
    assert message == {"type": "websocket.close", "code": 4401}
    await socket.wait()


async def test_connections_from_a_foreign_origin_are_refused(alice):
    socket, connected = await open_lobby(alice, origin=(b"origin", b"http://evil.example"))
    assert not connected
    await socket.disconnect(timeout=10)


async def test_connections_without_an_origin_are_refused(alice):
    socket, connected = await open_lobby(alice, origin=None)
    assert not connected
    await socket.disconnect(timeout=10)


async def test_the_lobby_socket_is_read_only(alice):
    socket, _ = await open_lobby(alice)
    await next_count(socket)
    await socket.send_json_to({"type": "chat", "text": "hi"})
    assert await socket.receive_json_from(timeout=10) == {"type": "error", "code": "read_only"}
    await socket.disconnect(timeout=10)


@pytest.mark.parametrize(
    "origin",
    [
        b"http://localhost:8001",  # another port of the same host
        b"https://localhost",  # another scheme
        b"http://localhost.evil.example",
        b"null",  # a sandboxed or file: page
    ],
)
async def test_another_port_or_scheme_of_the_same_host_is_refused(alice, origin):
    socket, connected = await open_lobby(alice, origin=(b"origin", origin))
    assert not connected
    await socket.disconnect(timeout=10)


async def test_the_sites_own_origin_with_its_port_is_accepted(alice):
    headers = [
        (b"host", b"localhost:8000"),
        (b"origin", b"http://localhost:8000"),
        (b"cookie", await session_cookie(alice)),
    ]
    socket = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await socket.connect(timeout=10)
    assert connected
    await socket.disconnect(timeout=10)


async def test_a_trusted_origin_from_the_settings_is_accepted(alice, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://felt.example.org"]
    socket, connected = await open_lobby(alice, origin=(b"origin", b"https://felt.example.org"))
    assert connected
    await socket.disconnect(timeout=10)


async def next_table_news(socket: WebsocketCommunicator) -> dict:
    """The next lobby frame about a friends' table (presence counts skipped)."""
    while True:
        message = await socket.receive_json_from(timeout=10)
        if message["type"] != "online":
            return message


async def test_a_table_appears_and_disappears_live_as_its_host_lists_it(alice, bob):
    bob_socket, _ = await open_lobby(bob)
    assert await next_count(bob_socket) == 1
    table = await database_sync_to_async(services.table_create)(
        owner=alice,
        name="Omaha night",
        game="plo",
        allows_straddle=True,
        bomb_pot_ante=40,
        bomb_pot_every=5,
    )
    assert await bob_socket.receive_nothing(timeout=0.5), "an unlisted table is not news"

    await database_sync_to_async(services.table_set_listed)(
        table_id=table.pk, user=alice, listed=True
    )
    listed = await next_table_news(bob_socket)
    assert listed["type"] == "table_listed"
    assert listed["table"] == {
        "id": table.pk,
        "name": "Omaha night",
        "url": f"/tables/{table.pk}/",
        "game": "Pot-Limit Omaha",
        "blinds": "blinds 10/20",
        "options": ["Straddles", "Bomb pot 40 every 5 hands"],
        "players": 0,
        "seat_count": 6,
    }

    await database_sync_to_async(services.table_set_listed)(
        table_id=table.pk, user=alice, listed=False
    )
    unlisted = await next_table_news(bob_socket)
    assert unlisted == {"type": "table_unlisted", "table_id": table.pk}, "nothing but its id"
    await bob_socket.disconnect(timeout=10)


async def test_a_table_opened_listed_appears_live(alice, bob):
    bob_socket, _ = await open_lobby(bob)
    assert await next_count(bob_socket) == 1
    await database_sync_to_async(services.table_create)(
        owner=alice, name="Open game", is_listed=True
    )
    news = await next_table_news(bob_socket)
    assert news["type"] == "table_listed" and news["table"]["name"] == "Open game"
    await bob_socket.disconnect(timeout=10)

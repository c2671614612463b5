"""Ending a session from the profile closes that session's open websockets, and only
theirs: the lobby socket through the full ASGI stack and the real Redis channel layer."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from accounts.models import MemberSession
from config.asgi import application
from tests.support import PASSWORD
from tests.support.lobby import SAME_ORIGIN

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections", "clean_redis"),
]


async def logged_in_browser(user, user_agent: str) -> Client:
    client = Client(HTTP_USER_AGENT=user_agent)
    assert await sync_to_async(client.login)(username=user.username, password=PASSWORD)
    await sync_to_async(client.get)(reverse("accounts:profile"))  # seen once: listed
    return client


async def lobby_socket(client: Client) -> tuple[WebsocketCommunicator, bool]:
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    headers = [(b"host", b"localhost"), SAME_ORIGIN, (b"cookie", cookie)]
    socket = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await socket.connect(timeout=10)
    return socket, connected


async def close_code(socket: WebsocketCommunicator, seconds: float = 5) -> int | None:
    """The code the socket is closed with within ``seconds``; None if it stays open."""
    try:
        async with asyncio.timeout(seconds):
            while True:
                message = await socket.receive_output(timeout=seconds)
                if message["type"] == "websocket.close":
                    return int(message["code"])
    except TimeoutError:
        return None


async def session_id_of(client: Client) -> int:
    key = client.cookies["sessionid"].value
    return (await MemberSession.objects.aget(session_id=key)).pk


@pytest.fixture
def alice(make_user):
    return make_user("alice")


async def test_ending_a_session_closes_its_sockets_and_leaves_this_browsers_open(alice):
    laptop = await logged_in_browser(alice, "Firefox")
    phone = await logged_in_browser(alice, "Safari")
    laptop_socket, _ = await lobby_socket(laptop)
    phone_socket, _ = await lobby_socket(phone)
    ended = reverse("accounts:session_end", args=[await session_id_of(phone)])

    response = await sync_to_async(laptop.post)(ended)

    assert response.status_code == 302
    assert await close_code(phone_socket) == 4403  # SESSION_ENDED
    assert await close_code(laptop_socket, seconds=1) is None, "this browser's stays open"
    again, connected = await lobby_socket(phone)
    assert connected and await close_code(again) == 4401, "its cookie logs nobody in now"
    await laptop_socket.disconnect(timeout=10)


async def test_log_out_everywhere_else_closes_every_other_sessions_sockets(alice):
    laptop = await logged_in_browser(alice, "Firefox")
    others = [await logged_in_browser(alice, agent) for agent in ("Safari", "Chrome")]
    laptop_socket, _ = await lobby_socket(laptop)
    other_sockets = [(await lobby_socket(client))[0] for client in others]

    await sync_to_async(laptop.post)(reverse("accounts:sessions_end_others"))

    assert [await close_code(socket) for socket in other_sockets] == [4403, 4403]
    assert await close_code(laptop_socket, seconds=1) is None
    await laptop_socket.disconnect(timeout=10)


async def test_a_table_socket_of_an_ended_session_closes(alice, make_user):
    from tests.tables.helpers import friends_table
    from tests.tables.sockets import Client as TableTab

    table = await sync_to_async(friends_table)(alice, await sync_to_async(make_user)("bob"))
    laptop = await logged_in_browser(alice, "Firefox")
    phone = await logged_in_browser(alice, "Safari")
    cookie = f"sessionid={phone.cookies['sessionid'].value}".encode()
    tab = await TableTab.open_with_cookie(cookie, table.pk)
    ended = reverse("accounts:session_end", args=[await session_id_of(phone)])

    await sync_to_async(laptop.post)(ended)

    assert await close_code(tab.socket) == 4403

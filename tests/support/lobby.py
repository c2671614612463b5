"""The lobby websocket (who is online) through the full ASGI stack."""

from channels.testing import WebsocketCommunicator
from django.test import AsyncClient

from config.asgi import application

SAME_ORIGIN = (b"origin", b"http://localhost")


async def session_cookie(user) -> bytes:
    client = AsyncClient()
    await client.aforce_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def open_lobby(user=None, origin=SAME_ORIGIN) -> tuple[WebsocketCommunicator, bool]:
    headers = [(b"host", b"localhost")]
    if origin:
        headers.append(origin)
    if user is not None:
        headers.append((b"cookie", await session_cookie(user)))
    socket = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await socket.connect(timeout=10)
    return socket, connected


async def next_count(socket: WebsocketCommunicator) -> int:
    message = await socket.receive_json_from(timeout=10)
    assert message["type"] == "online"
    return message["count"]

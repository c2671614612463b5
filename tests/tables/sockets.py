"""A websocket client for the table tests: keeps every frame it receives."""

from __future__ import annotations

import json
from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import AsyncClient

from config.asgi import application
from tables import links
from tables.models import Table

HEADERS = [(b"host", b"localhost"), (b"origin", b"http://localhost")]
# The communicator's default of 1 s for a handshake: under make test's load a
# handshake (the session read, the first snapshot) once took longer, and the
# test then hung in the communicator's clean-up until pytest-timeout.
HANDSHAKE_SECONDS = 10


async def session_cookie(user: Any, *, came_by_link_to: int | None = None) -> bytes:
    """A browser session of ``user``'s; with ``came_by_link_to``, one that opened that
    table's shared link (its key remembered, as ``tables.views`` does on the page)."""
    client = AsyncClient()
    await client.aforce_login(user)
    table = await Table.objects.filter(pk=came_by_link_to).afirst() if came_by_link_to else None
    if table is not None:
        session = await client.asession()
        await sync_to_async(_admit)(session, table)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def _admit(session: Any, table: Table) -> None:
    links.admit(session, table)
    session.save()


async def close_code_after_accepting(socket: WebsocketCommunicator) -> int:
    """Accepted, then closed with a code: a browser sees the code (a socket closed
    before it is accepted reaches the browser as a bare HTTP 403)."""
    connected, _ = await socket.connect(timeout=HANDSHAKE_SECONDS)
    assert connected
    message = await socket.receive_output(timeout=HANDSHAKE_SECONDS)
    assert message["type"] == "websocket.close"
    await socket.wait()
    return int(message["code"])


class Client:
    """One browser tab at a table: sends commands, records every frame."""

    def __init__(self, socket: WebsocketCommunicator, name: str) -> None:
        self.socket = socket
        self.name = name
        self.frames: list[dict[str, Any]] = []
        self.texts: list[str] = []

    @classmethod
    async def open(
        cls, user: Any, table_id: int, app: Any = application, *, by_link: bool = True
    ) -> Client:
        """A tab of ``user`` (a session of its own; None: signed out), served by ``app``.

        ``by_link``: the tab came by the table's shared link, key and all, as a friend
        invited to an unlisted table does (a player or a listed table needs none)."""
        came = table_id if by_link else None
        cookie = None if user is None else await session_cookie(user, came_by_link_to=came)
        name = getattr(user, "username", "anonymous")
        return await cls.open_with_cookie(cookie, table_id, name, app)

    @classmethod
    async def open_with_cookie(
        cls, cookie: bytes | None, table_id: int, name: str = "", app: Any = application
    ) -> Client:
        """A tab sending ``cookie`` (an existing browser session)."""
        headers = list(HEADERS)
        if cookie is not None:
            headers.append((b"cookie", cookie))
        socket = WebsocketCommunicator(app, f"/ws/tables/{table_id}/", headers=headers)
        connected, code = await socket.connect(timeout=HANDSHAKE_SECONDS)
        assert connected, f"refused with {code}"
        client = cls(socket, name or "a tab")
        await client.snapshot()
        return client

    async def next(self, timeout: float = 5) -> dict[str, Any]:
        output = await self.socket.receive_output(timeout)
        # A close says why (its code, docs/protocol.md): when it comes unexpected, that is
        # what the failure needs to show.
        assert output["type"] == "websocket.send", f"{self.name}'s socket was closed: {output}"
        text = output["text"]
        frame = json.loads(text)
        self.texts.append(text)
        self.frames.append(frame)
        return frame

    async def next_but_presence(self, timeout: float = 5) -> dict[str, Any]:
        """The next frame that is not a presence frame (those come whenever another
        player's connection drops or comes back; they are kept in ``frames``)."""
        while True:
            frame = await self.next(timeout)
            if frame["type"] != "presence":
                return frame

    async def snapshot(self, seq: int | None = None, timeout: float = 5) -> dict[str, Any]:
        """The next snapshot (with ``seq`` at least, when given); errors are not expected."""
        while True:
            frame = await self.next_but_presence(timeout)
            assert frame["type"] == "snapshot", f"{self.name} got {frame}"
            if seq is None or frame["seq"] >= seq:
                return frame["table"]

    async def send(self, message: Any) -> None:
        await self.socket.send_to(text_data=json.dumps(message))

    async def error(self, message: Any, raw: bool = False) -> dict[str, Any]:
        """Send ``message`` (text as is when ``raw``) and return the error frame it gets."""
        if raw:
            await self.socket.send_to(text_data=message)
        else:
            await self.send(message)
        frame = await self.next_but_presence()
        assert frame["type"] == "error", f"{message!r} got {frame}"
        return frame

    @property
    def table(self) -> dict[str, Any]:
        return next(f["table"] for f in reversed(self.frames) if f["type"] == "snapshot")

    async def is_quiet(self) -> bool:
        return await self.socket.receive_nothing(timeout=0.2)

    async def close(self) -> None:
        await self.socket.disconnect()

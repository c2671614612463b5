"""Many websocket handshakes against a live server at once, as a reconnect storm makes them.

Each is a bare TCP connection that writes its upgrade request and reads the HTTP
status the server answers (101 when the socket opened; a code a socket is
closed with comes after that, in a frame). Every connection is opened before any
answer is read, so the server meets them all together.
"""

from __future__ import annotations

import asyncio
import base64
import os
from collections import Counter
from urllib.parse import urlsplit

ANSWER_SECONDS = 30.0


async def _handshake(base_url: str, path: str, cookie: str | None, start: asyncio.Event) -> int:
    netloc = urlsplit(base_url).netloc
    host, port = netloc.rsplit(":", 1)
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        cookie_line = f"Cookie: {cookie}\r\n" if cookie else ""
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {netloc}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: {base_url}\r\n{cookie_line}\r\n"
        )
        await start.wait()
        writer.write(request.encode())
        await writer.drain()
        status_line = await reader.readline()
        if not status_line:
            return 0  # closed without an answer
        return int(status_line.split()[1])
    finally:
        writer.close()
        await writer.wait_closed()


async def _burst(base_url: str, requests: list[tuple[str, str | None]]) -> Counter[int]:
    start = asyncio.Event()
    tasks = [
        asyncio.ensure_future(_handshake(base_url, path, cookie, start))
        for path, cookie in requests
    ]
    await asyncio.sleep(0.2)  # every connection made; then every request written at once
    start.set()
    statuses = await asyncio.wait_for(asyncio.gather(*tasks), ANSWER_SECONDS)
    return Counter(statuses)


def handshake_burst(base_url: str, requests: list[tuple[str, str | None]]) -> Counter[int]:
    """Open a socket for every (path, cookie) in ``requests`` at once; how many
    handshakes got each HTTP status."""
    return asyncio.run(_burst(base_url, requests))

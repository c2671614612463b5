"""The fault drill's own balancer where haproxy is not installed:
``python scripts/drill/tcp_proxy.py PORT HOST:PORT [HOST:PORT ...]``.

Listens on 127.0.0.1:PORT and hands each connection to the next node in turn
that accepts one (a node killed refuses, so its share goes to the others), then
copies bytes both ways until either side closes; a node that dies drops its
connections, as it would behind any balancer. It reads nothing of HTTP.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import sys

CONNECT_TIMEOUT = 2.0
CHUNK = 65536


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()


class Proxy:
    def __init__(self, backends: list[tuple[str, int]]) -> None:
        self.backends = backends
        self.turn = itertools.cycle(range(len(backends)))

    async def open_backend(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        first = next(self.turn)
        for offset in range(len(self.backends)):
            host, port = self.backends[(first + offset) % len(self.backends)]
            with contextlib.suppress(OSError, TimeoutError):
                return await asyncio.wait_for(asyncio.open_connection(host, port), CONNECT_TIMEOUT)
        return None

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        backend = await self.open_backend()
        if backend is None:  # no node accepts: the client sees its connection closed
            writer.close()
            return
        await asyncio.gather(pipe(reader, backend[1]), pipe(backend[0], writer))


async def main(port: int, backends: list[tuple[str, int]]) -> None:
    proxy = Proxy(backends)
    server = await asyncio.start_server(proxy.serve, "127.0.0.1", port, backlog=1024)
    async with server:
        await server.serve_forever()


def address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return host, int(port)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), [address(arg) for arg in sys.argv[2:]]))

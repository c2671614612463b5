"""The load test's misbehaving clients (``loadtest --flood F [--reconnect]``).

A flooder sits at a table of its own and writes stale commands as fast as its
socket takes them, without reading the answers; a reconnecting one opens a
new socket as soon as the server closes the last (a 4429, or a handshake
refused) and floods again. What they sent and were told goes in ``FloodStats``,
apart from the measured play.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from random import Random
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import WebSocketException

from tables.loadtest.clients import Client, Player, Stats


@dataclass
class FloodStats:
    """What the flooding clients sent and were told (not part of the measured play)."""

    sent: int = 0
    connections: int = 0  # sockets opened (accepted, if only to be closed at once)
    answers: Counter[str] = field(default_factory=Counter)  # error codes and frame types
    close_codes: Counter[int] = field(default_factory=Counter)

    def report(self, clients: int) -> str:
        answers = ", ".join(f"{code} x{n}" for code, n in sorted(self.answers.items()))
        closes = ", ".join(f"{code} x{n}" for code, n in sorted(self.close_codes.items()))
        return (
            f"flood: {clients} clients, {self.connections} connections, sent {self.sent} "
            f"commands; answers: {answers or 'none'}; closed by the server: {closes or 'none'}"
        )


class Flooder(Client):
    """A misbehaving client: stale commands, as fast as the socket takes them."""

    STALE = json.dumps({"type": "act", "action": "fold", "decision": "0.0"})
    reconnects = False  # one socket; ``ReconnectingFlooder`` comes back at once instead

    def __init__(self, player: Player, base_url: str, flood: FloodStats) -> None:
        super().__init__(player, base_url, Stats(), Random(0))
        self.flood = flood

    async def play(self, socket: ClientConnection, deadline: float) -> None:
        self.flood.connections += 1
        reader = asyncio.create_task(self.read_answers(socket))
        try:
            while time.monotonic() < deadline and not reader.done():
                await socket.send(self.STALE)
                self.flood.sent += 1
                # Yield after each frame: the measured clients share this event loop, and
                # a flooder that never yields would slow them down here, not on the server.
                await asyncio.sleep(0)
        except WebSocketException:
            pass  # closed by the server: what a flood should come to
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
        if socket.close_code is not None:
            self.flood.close_codes[socket.close_code] += 1

    async def read_answers(self, socket: ClientConnection) -> None:
        with contextlib.suppress(WebSocketException):
            async for text in socket:
                frame = json.loads(text)
                self.flood.answers[str(frame.get("code") or frame.get("type"))] += 1


class ReconnectingFlooder(Flooder):
    """A flooder that comes straight back whenever the server closes it."""

    def on_connect(self) -> list[dict[str, Any]]:
        return []  # it does not sit: a socket refused at once still counts in ``play``

    async def run(self, deadline: float, gate: asyncio.Semaphore) -> None:
        while time.monotonic() < deadline:
            await super().run(deadline, gate)
            await asyncio.sleep(0)  # a refused connect fails at once: let the others run

"""The load test's clients: one player's websocket, its moves, and what they measure.

``manage.py loadtest`` (and the tournaments' load tests) run these against a
server; ``tables/loadtest/flooders.py`` builds its misbehaving clients on
``Client``; ``tables/loadtest/driver.py`` sets a run up and plays it.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

CONNECT_TIMEOUT = 10.0  # seconds to open one websocket
CLOSE_TIMEOUT = 2.0
CONNECTS_AT_ONCE = 20  # handshakes in flight, so hundreds of clients do not swamp the server


# --- measuring -----------------------------------------------------------------


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` (0-100) percentile of ``values``, interpolated between ranks."""
    if not values:
        raise ValueError("no values to take a percentile of")
    if not 0 <= share <= 100:
        raise ValueError(f"a percentile is between 0 and 100, not {share}")
    ordered = sorted(values)
    rank = (len(ordered) - 1) * share / 100
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


@dataclass
class Stats:
    """What every client saw, shared by all of them (one event loop, no locks needed)."""

    round_trips: list[float] = field(default_factory=list)  # seconds
    # Actions sent before this time.perf_counter() moment are the warm-up: not measured.
    measure_from: float = 0.0
    connected: int = 0
    actions_sent: int = 0
    snapshots: int = 0
    server_errors: Counter[str] = field(default_factory=Counter)  # error frames, by code
    client_errors: list[str] = field(default_factory=list)  # failed connects, lost sockets...

    @property
    def has_errors(self) -> bool:
        return bool(self.server_errors or self.client_errors)

    def report(
        self, tables: int, clients: int, seconds: float, think: float = 0.0, warmup: float = 0.0
    ) -> str:
        """``seconds``: how long the measured part of the run took (after ``warmup``)."""
        lines = [
            f"tables: {tables}, clients: {clients} ({self.connected} connected), "
            f"measured: {seconds:.1f} s after a {warmup:g} s warm-up",
            f"actions: {self.actions_sent} sent, {len(self.round_trips)} answered, "
            f"{len(self.round_trips) / seconds:.1f} actions/s; snapshots received: "
            f"{self.snapshots}",
        ]
        if self.round_trips:
            ms = [rtt * 1000 for rtt in self.round_trips]
            lines.append(
                "round trip ms: "
                + ", ".join(f"p{p} {percentile(ms, p):.1f}" for p in (50, 95, 99))
                + f", max {max(ms):.1f}"
            )
        else:
            lines.append("round trip ms: no action was answered")
        codes = ", ".join(f"{code} x{n}" for code, n in sorted(self.server_errors.items()))
        lines.append(f"server errors: {codes or 'none'}")
        lines.append(f"client errors: {len(self.client_errors)}")
        lines += [f"  {error}" for error in self.client_errors[:10]]
        lines.append(self.summary(tables, clients, seconds, think, warmup))
        return "\n".join(lines)

    def summary(
        self, tables: int, clients: int, seconds: float, think: float, warmup: float = 0.0
    ) -> str:
        """One line with every figure, to paste into a table of runs."""
        ms = [rtt * 1000 for rtt in self.round_trips]
        trips = (
            " ".join(f"p{p} {percentile(ms, p):.1f}" for p in (50, 95, 99)) + f" max {max(ms):.1f}"
            if ms
            else "none answered"
        )
        errors = sum(self.server_errors.values()) + len(self.client_errors)
        return (
            f"summary: tables {tables}, clients {clients}, think {think:g} s, "
            f"warm-up {warmup:g} s, "
            f"actions {len(self.round_trips)}, {len(self.round_trips) / seconds:.1f} actions/s, "
            f"round trip ms {trips}, errors {errors}"
        )


# --- choosing moves --------------------------------------------------------------


def random_act(legal: dict[str, Any], decision: str, rng: Random) -> dict[str, Any]:
    """A random legal ``act`` message for the snapshot's ``legal`` block.

    Mostly checks and calls with some small raises, so hands run several
    streets and stacks last; folds only when facing a bet.
    """
    roll = rng.random()
    low, high = legal["min_raise_to"], legal["max_raise_to"]
    if low is not None and roll < 0.2:
        amount = low if rng.random() < 0.8 else rng.randint(low, high)
        return {"type": "act", "action": "raise", "amount": amount, "decision": decision}
    if legal["can_check"]:
        return {"type": "act", "action": "check", "decision": decision}
    if roll < 0.35:
        return {"type": "act", "action": "fold", "decision": decision}
    return {"type": "act", "action": "call", "decision": decision}


# --- one player's socket -----------------------------------------------------------


@dataclass
class Player:
    """A logged-in user with a seat to take at a table."""

    table_id: int
    seat: int
    session_key: str
    username: str


class Client:
    """One player's websocket: sits down, then acts on every snapshot that asks it to."""

    def __init__(
        self, player: Player, base_url: str, stats: Stats, rng: Random, think: float = 0.0
    ) -> None:
        self.player = player
        self.think = think  # at most this many seconds of "thinking" before each action
        self.base_url = base_url
        self.stats = stats
        self.rng = rng
        self.acted_on: int | None = None  # seq of the snapshot our pending action named
        self.acted_decision: str | None = None  # and the decision it answered
        self.sent_at = 0.0
        self.is_rebuying = False
        self.local_address: str | None = None  # to connect from (None: the system's choice)

    @property
    def ws_url(self) -> str:
        parts = urlsplit(self.base_url)
        scheme = "wss" if parts.scheme == "https" else "ws"
        return f"{scheme}://{parts.netloc}/ws/tables/{self.player.table_id}/"

    async def run(self, deadline: float, gate: asyncio.Semaphore) -> None:
        """Play until ``deadline`` (a ``time.monotonic`` time); errors go to the stats.

        ``gate`` limits how many clients open their socket at the same moment.
        """
        name = f"{self.player.username} (table {self.player.table_id})"
        try:
            async with asyncio.timeout(max(0.0, deadline - time.monotonic()) + CONNECT_TIMEOUT):
                async with gate:
                    socket = await connect(
                        self.ws_url,
                        origin=self.origin(),  # type: ignore[arg-type]
                        additional_headers={"Cookie": self.cookie()},
                        open_timeout=CONNECT_TIMEOUT,
                        close_timeout=CLOSE_TIMEOUT,
                        compression=None,
                        **self.connect_options(),
                    )
                self.stats.connected += 1
                async with socket:
                    for message in self.on_connect():
                        await socket.send(json.dumps(message))
                    await self.play(socket, deadline)
        except (OSError, TimeoutError, WebSocketException, ValueError, KeyError) as error:
            # a refused or lost socket, a timeout, or a frame this client cannot read
            self.stats.client_errors.append(f"{name}: {type(error).__name__}: {error}")

    def connect_options(self) -> dict[str, Any]:
        """Passed on to the event loop's ``create_connection``."""
        return {"local_addr": (self.local_address, 0)} if self.local_address else {}

    def on_connect(self) -> list[dict[str, Any]]:
        """What the client sends once connected: it takes its seat."""
        return [{"type": "sit", "seat": self.player.seat}]

    def origin(self) -> str:
        parts = urlsplit(self.base_url)
        return f"{parts.scheme}://{parts.netloc}"

    def cookie(self) -> str:
        return f"{settings.SESSION_COOKIE_NAME}={self.player.session_key}"

    async def play(self, socket: ClientConnection, deadline: float) -> None:
        while (left := deadline - time.monotonic()) > 0:
            try:
                text = await asyncio.wait_for(socket.recv(), timeout=left)
            except TimeoutError:
                return  # the run is over, not an error
            for reply in self.on_frame(json.loads(text), time.perf_counter()):
                if reply["type"] == "act" and self.think > 0:
                    # A human-like pause; the round trip starts when the action leaves.
                    await asyncio.sleep(self.rng.uniform(0, self.think))
                await socket.send(json.dumps(reply))
                if reply["type"] == "act":
                    self.stats.actions_sent += 1
                    self.sent_at = time.perf_counter()

    def on_frame(self, frame: dict[str, Any], received_at: float) -> list[dict[str, Any]]:
        """Update the measurements from one server frame; the messages to send back."""
        if frame.get("type") == "error":
            self.stats.server_errors[str(frame.get("code"))] += 1
            self.acted_on = None  # refused: nothing changed, the next snapshot tells us more
            return []
        if frame.get("type") != "snapshot":
            return []
        self.stats.snapshots += 1
        seq, table = frame["seq"], frame["table"]
        # Answered once the decision acted on is gone. A newer snapshot still naming it
        # came from another change that crossed the action (a player sitting down, a
        # move in): acting again on it would only be refused as stale.
        answered = table.get("decision") != self.acted_decision
        if self.acted_on is not None and seq > self.acted_on and answered:
            if self.sent_at >= self.stats.measure_from:
                self.stats.round_trips.append(received_at - self.sent_at)
            self.acted_on = None
        if self.acted_on is None and table.get("legal"):
            self.acted_on, self.acted_decision = seq, table["decision"]
            return [self.choose(table["legal"], table["decision"])]
        return self.rebuy(table)

    def choose(self, legal: dict[str, Any], decision: str) -> dict[str, Any]:
        """The ``act`` message for a decision: a random legal one."""
        return random_act(legal, decision, self.rng)

    def rebuy(self, table: dict[str, Any]) -> list[dict[str, Any]]:
        """Busted between hands: stand up and sit again with a fresh stack."""
        mine = table["seats"][self.player.seat]
        is_between_hands = table["hand"] is None or table["hand"]["is_over"]
        if not mine.get("is_you"):
            self.is_rebuying = False
            return []
        if mine["stack"] > 0 or not is_between_hands or self.is_rebuying:
            return []
        self.is_rebuying = True
        return [{"type": "leave"}, {"type": "sit", "seat": self.player.seat}]

"""The load test's clients: one player's websocket, its moves, and what they measure.

``manage.py loadtest`` (and the tournaments' load tests) run these against a
server; ``tables/loadtest/flooders.py`` builds its misbehaving clients on
``Client``; ``tables/loadtest/driver.py`` sets a run up and plays it.

A client whose socket drops comes back as the table page does
(``static/js/table.js``): after 0.5 s, the pause doubling to 15 s and starting
again from 0.5 s once a socket opens; never after a close code that says
trying again cannot help (docs/protocol.md). The server sends a new socket the
table's whole snapshot, which is all a client needs to play on: what it had
sent on the lost socket and not seen answered is forgotten, and the snapshot
says whether the decision is still its to make.
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
from websockets.exceptions import (
    ConnectionClosed,
    InvalidHandshake,
    InvalidStatus,
    WebSocketException,
)

from config.platform.close_codes import CloseCode
from tables.loadtest.cutting import CutHand

CONNECT_TIMEOUT = 10.0  # seconds to open one websocket
CLOSE_TIMEOUT = 2.0
CONNECTS_AT_ONCE = 20  # handshakes in flight, so hundreds of clients do not swamp the server
# The table page's pauses before it reconnects (static/js/table.js).
FIRST_PAUSE = 0.5
MAX_PAUSE = 15.0
# Close codes after which the page stops reconnecting (docs/protocol.md).
FINAL_CLOSE_CODES = frozenset(
    {
        CloseCode.UNAUTHENTICATED,
        CloseCode.SESSION_ENDED,
        CloseCode.NOT_FOUND,
        CloseCode.MEMBERS_ONLY,
        CloseCode.RATE_LIMITED,
    }
)


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
    refused_players: Counter[str] = field(default_factory=Counter)  # error frames, by player
    client_errors: list[str] = field(default_factory=list)  # refused for good, lost sockets...
    drops: int = 0  # sockets lost while playing (a server gone, a close code to retry after)
    # Seconds from each drop to the first snapshot on a new socket.
    reconnects: list[float] = field(default_factory=list)
    # Handshakes that failed before a socket opened, by why: "HTTP 500", "refused", ...
    failed_handshakes: Counter[str] = field(default_factory=Counter)
    cuts_sent: int = 0  # the players' ``cut`` messages (one a hand each)
    # Of those, refused because the table moved on as it crossed (the list closed, the
    # player moved to another table): nothing anyone sees, so not an error.
    cuts_crossed: int = 0
    # The load test's own processor seconds over the measured part: on the server's
    # machine, what it takes from the cores the server's figures are measured on.
    client_cpu: float = 0.0

    @property
    def server_failures(self) -> int:
        """Handshakes the server answered with an HTTP 5xx: an error a person would see."""
        return sum(n for why, n in self.failed_handshakes.items() if why.startswith("HTTP 5"))

    @property
    def has_errors(self) -> bool:
        return bool(self.server_errors or self.client_errors or self.server_failures)

    def reconnect_line(self) -> str:
        """The sockets lost and how long each took to play again."""
        if not self.reconnects:
            took = ""
        else:
            ms = [seconds * 1000 for seconds in self.reconnects]
            took = (
                ", back after ms: "
                + " ".join(f"p{p} {percentile(ms, p):.0f}" for p in (50, 95))
                + f" max {max(ms):.0f}"
            )
        refused = ", ".join(f"{why} x{n}" for why, n in sorted(self.failed_handshakes.items()))
        return (
            f"reconnects: {len(self.reconnects)} of {self.drops} dropped sockets{took}; "
            f"failed handshakes: {refused or 'none'}"
        )

    def report(
        self, tables: int, clients: int, seconds: float, think: float = 0.0, warmup: float = 0.0
    ) -> str:
        """``seconds``: how long the measured part of the run took (after ``warmup``)."""
        lines = [
            f"tables: {tables}, clients: {clients} ({self.connected} connected), "
            f"measured: {seconds:.1f} s after a {warmup:g} s warm-up",
            f"actions: {self.actions_sent} sent, {len(self.round_trips)} answered, "
            f"{len(self.round_trips) / seconds:.1f} actions/s; snapshots received: "
            f"{self.snapshots}; cut messages: {self.cuts_sent} ({self.cuts_crossed} crossed "
            "a change)",
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
        lines.append(self.reconnect_line())
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
        errors = sum(self.server_errors.values()) + len(self.client_errors) + self.server_failures
        return (
            f"summary: tables {tables}, clients {clients}, think {think:g} s, "
            f"warm-up {warmup:g} s, "
            f"actions {len(self.round_trips)}, {len(self.round_trips) / seconds:.1f} actions/s, "
            f"round trip ms {trips}, errors {errors}, reconnects {len(self.reconnects)}, "
            f"client CPU {self.client_cpu * 1000 / max(1, len(self.round_trips)):.2f} ms per action"
        )


# --- choosing moves --------------------------------------------------------------


# A cut that crossed a change in flight: the hand's list closed or it was dealt, the
# player moved to another table or was knocked out (docs/protocol.md).
CUT_CROSSED = ("stale_cut", "not_seated")


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


def handshake_failure(error: Exception) -> str:
    """Why a socket did not open, as the failed-handshake count names it."""
    if isinstance(error, InvalidStatus):
        return f"HTTP {error.response.status_code}"
    if isinstance(error, ConnectionRefusedError):
        return "refused"
    if isinstance(error, TimeoutError):
        return "timed out"
    if isinstance(error, OSError | InvalidHandshake):
        return "no answer"  # reset or closed before the server's answer
    return type(error).__name__


class Client:
    """One player's websocket: sits down, then acts on every snapshot that asks it to,
    and comes back as the table page does when the socket drops."""

    # False: a drop or a failed handshake ends the client (the flooders).
    reconnects = True

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
        self.has_connected = False
        self.lost_at: float | None = None  # time.perf_counter() of a drop not yet made good
        self.is_resuming = False  # on a new socket, until its first snapshot
        self.cut = CutHand()  # its values, kept across sockets as the page keeps them
        self.cuts_unanswered = 0  # cut messages sent on this socket, not yet answered

    @property
    def name(self) -> str:
        return f"{self.player.username} (table {self.player.table_id})"

    @property
    def ws_url(self) -> str:
        parts = urlsplit(self.base_url)
        scheme = "wss" if parts.scheme == "https" else "ws"
        return f"{scheme}://{parts.netloc}/ws/tables/{self.player.table_id}/"

    async def run(self, deadline: float, gate: asyncio.Semaphore) -> None:
        """Play until ``deadline`` (a ``time.monotonic`` time), reconnecting after a drop
        with the table page's pauses; errors go to the stats.

        ``gate`` limits how many clients open their socket at the same moment.
        """
        pause = FIRST_PAUSE
        while (left := deadline - time.monotonic()) > 0:
            try:
                async with asyncio.timeout(left + CONNECT_TIMEOUT):
                    try:
                        socket = await self.open(gate)
                    except (OSError, TimeoutError, InvalidHandshake) as error:
                        if not self.may_retry(error):
                            raise
                        self.stats.failed_handshakes[handshake_failure(error)] += 1
                        self.note_lost()
                    else:
                        pause = FIRST_PAUSE  # as the page does once a socket opens
                        async with socket:
                            await self.start_playing(socket)
                            await self.play(socket, deadline)
                        return  # played to the end (or out of the game)
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else None
                if code in FINAL_CLOSE_CODES or not self.reconnects:
                    self.stats.client_errors.append(f"{self.name}: closed with {code}: {closed}")
                    return
                self.stats.drops += 1
                self.note_lost()
            except (OSError, TimeoutError, WebSocketException, ValueError, KeyError) as error:
                # refused for good, a timeout, or a frame this client cannot read
                self.stats.client_errors.append(f"{self.name}: {type(error).__name__}: {error}")
                return
            await asyncio.sleep(min(pause, max(0.0, deadline - time.monotonic())))
            pause = min(pause * 2, MAX_PAUSE)
        if self.lost_at is not None:
            self.stats.client_errors.append(f"{self.name}: not back by the end of the run")

    def may_retry(self, error: Exception) -> bool:
        """A failed handshake the page would try again after: anything but a refusal
        (HTTP 4xx: a bad origin, a missing page), which trying again cannot mend."""
        if not self.reconnects:
            return False
        return not (isinstance(error, InvalidStatus) and error.response.status_code < 500)

    def note_lost(self) -> None:
        if self.lost_at is None and self.has_connected:
            self.lost_at = time.perf_counter()

    async def open(self, gate: asyncio.Semaphore) -> ClientConnection:
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
        if not self.has_connected:
            self.stats.connected += 1
        return socket

    async def start_playing(self, socket: ClientConnection) -> None:
        """The first socket takes the seat; a new one after a drop waits for its
        snapshot (``resume``)."""
        self.cuts_unanswered = 0  # a new socket: nothing sent on it yet
        if self.has_connected:
            self.is_resuming = True
            self.acted_on = None  # an action sent on the lost socket may never have arrived
            return
        self.has_connected = True
        for message in self.on_connect():
            await socket.send(json.dumps(message))

    def connect_options(self) -> dict[str, Any]:
        """Passed on to ``websockets.connect``: no pings of the client's own (the
        websockets library's would be a frame each way every 20 s that no browser
        sends; the client still answers the server's), and the address to connect from."""
        options: dict[str, Any] = {"ping_interval": None}
        if self.local_address:
            options["local_addr"] = (self.local_address, 0)
        return options

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
                # Not asyncio.wait_for: on Python 3.11 it swallows a cancellation that
                # comes as a frame arrives, and a client stopped that way played on.
                async with asyncio.timeout(left):
                    text = await socket.recv()
            except TimeoutError:
                return  # the run is over, not an error
            for reply in self.on_frame(json.loads(text), time.perf_counter()):
                if reply["type"] == "act" and self.think > 0:
                    # A human-like pause; the round trip starts when the action leaves.
                    await asyncio.sleep(self.rng.uniform(0, self.think))
                await socket.send(json.dumps(reply))
                self.note_sent(reply)

    def note_sent(self, reply: dict[str, Any]) -> None:
        """Count a message just sent: an action's round trip starts now; a cut's answer
        comes back before any later message's (``on_frame``)."""
        if reply["type"] == "cut":
            self.stats.cuts_sent += 1
            self.cuts_unanswered += 1
        elif reply["type"] == "act":
            self.stats.actions_sent += 1
            self.sent_at = time.perf_counter()

    def on_frame(self, frame: dict[str, Any], received_at: float) -> list[dict[str, Any]]:
        """Update the measurements from one server frame; the messages to send back."""
        if frame.get("type") == "cut_accepted":
            self.cuts_unanswered = max(0, self.cuts_unanswered - 1)
            return []
        if frame.get("type") == "error" and self.cuts_unanswered:
            # Frames answer a socket's messages in order: this one answers its cut.
            self.cuts_unanswered -= 1
            if frame.get("code") in CUT_CROSSED:
                self.stats.cuts_crossed += 1
                return []
        if frame.get("type") == "error":
            self.stats.server_errors[str(frame.get("code"))] += 1
            self.stats.refused_players[self.player.username] += 1
            self.acted_on = None  # refused: nothing changed, the next snapshot tells us more
            return []
        if frame.get("type") != "snapshot":
            return []
        self.stats.snapshots += 1
        if self.is_resuming:
            return self.resume(frame, received_at)
        seq, table = frame["seq"], frame["table"]
        # Answered once the decision acted on is gone. A newer snapshot still naming it
        # came from another change that crossed the action (a player sitting down, a
        # move in): acting again on it would only be refused as stale.
        answered = table.get("decision") != self.acted_decision
        if self.acted_on is not None and seq > self.acted_on and answered:
            if self.sent_at >= self.stats.measure_from:
                self.stats.round_trips.append(received_at - self.sent_at)
            self.acted_on = None
        cut = self.cut.messages(table)  # as the page does: before anything else
        if self.acted_on is None and table.get("legal"):
            self.acted_on, self.acted_decision = seq, table["decision"]
            return [*cut, self.choose(table["legal"], table["decision"])]
        return [*cut, *self.rebuy(table)]

    def resume(self, frame: dict[str, Any], received_at: float) -> list[dict[str, Any]]:
        """The first snapshot on a new socket: the drop is made good; play on from it,
        taking the seat again if it was lost with the socket (never sat down)."""
        self.is_resuming = False
        if self.lost_at is not None:
            self.stats.reconnects.append(received_at - self.lost_at)
            self.lost_at = None
        seats = frame["table"]["seats"]
        is_seated = 0 <= self.player.seat < len(seats) and seats[self.player.seat].get("is_you")
        if self.player.seat >= 0 and not is_seated:
            return self.on_connect()
        return self.on_frame(frame, received_at)

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

"""`python manage.py loadtest --tables N --seconds S`: bot clients against a running server.

For each table it creates 2-6 throw-away users (``loadtest-...``), logs them in
by writing Django sessions straight into the database the server uses (run it
with the server's FELT_HOME / DATABASE_URL), opens a friends' table through the
tables service, and connects one websocket per player to ``/ws/tables/<id>/``
with the session cookie and the server's Origin. Each client sits down and,
whenever its snapshot carries ``legal``, sends a random legal ``act`` naming
that snapshot's ``seq``. The round trip is the time from sending an action to
receiving the first snapshot with a greater ``seq``.

With ``--think T`` each client first waits a random 0..T seconds before every
action, as a person would; the round trip still starts when the action is sent.
The first ``--warmup`` seconds (5 by default) are played but not measured:
every table sits down and deals its first hand at the same moment, and those
first, lock-step hands are not what continuous play looks like.
With ``--flood F``, F more clients sit at a table of their own and send stale
commands as fast as they can without reading the answers, as a misbehaving
client would: the other tables' round trips show what that costs them, and a
``flood:`` line what the flooders were told.
It prints actions per second, the round-trip p50/p95/p99 and the errors seen,
ending with one ``summary:`` line holding every figure, and fails (exit code 1)
when any client errored. Users, sessions and tables are deleted afterwards
unless ``--no-cleanup``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import secrets
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import import_module
from random import Random
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.models import Session
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from accounts.models import User
from tables.management.arguments import (
    non_negative_float,
    non_negative_int,
    positive_float,
    positive_int,
)
from tables.models import Table
from tables.services import table_create

CONNECT_TIMEOUT = 10.0  # seconds to open one websocket
CLOSE_TIMEOUT = 2.0
CONNECTS_AT_ONCE = 20  # handshakes in flight, so hundreds of clients do not swamp the server
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


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
                    )
                self.stats.connected += 1
                async with socket:
                    for message in self.on_connect():
                        await socket.send(json.dumps(message))
                    await self.play(socket, deadline)
        except (OSError, TimeoutError, WebSocketException, ValueError, KeyError) as error:
            # a refused or lost socket, a timeout, or a frame this client cannot read
            self.stats.client_errors.append(f"{name}: {type(error).__name__}: {error}")

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


@dataclass
class FloodStats:
    """What the flooding clients sent and were told (not part of the measured play)."""

    sent: int = 0
    answers: Counter[str] = field(default_factory=Counter)  # error codes and frame types
    close_codes: Counter[int] = field(default_factory=Counter)

    def report(self, clients: int) -> str:
        answers = ", ".join(f"{code} x{n}" for code, n in sorted(self.answers.items()))
        closes = ", ".join(f"{code} x{n}" for code, n in sorted(self.close_codes.items()))
        return (
            f"flood: {clients} clients sent {self.sent} commands; answers: {answers or 'none'};"
            f" closed by the server: {closes or 'none'}"
        )


class Flooder(Client):
    """A misbehaving client: stale commands, as fast as the socket takes them."""

    STALE = json.dumps({"type": "act", "action": "fold", "decision": "0.0"})

    def __init__(self, player: Player, base_url: str, flood: FloodStats) -> None:
        super().__init__(player, base_url, Stats(), Random(0))
        self.flood = flood

    async def play(self, socket: ClientConnection, deadline: float) -> None:
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


# --- setting up and cleaning up (the ORM, outside the event loop) --------------------


def log_in(user: Any) -> str:
    """A session that logs ``user`` in, as the login view would make it; its key."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = MODEL_BACKEND
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return str(store.session_key)


@dataclass
class Setup:
    """Everything the run created, so it can be deleted again."""

    players: list[Player] = field(default_factory=list)
    table_ids: list[int] = field(default_factory=list)
    user_ids: list[int] = field(default_factory=list)


def create_tables(count: int, rng: Random, size: int | None = None) -> Setup:
    """``count`` friends' tables, each with ``size`` (default: 2-6) fresh logged-in users
    to seat."""
    run = secrets.token_hex(3)
    setup = Setup()
    for number in range(count):
        players = size or rng.randint(2, 6)
        users = [
            User.objects.create_user(username=f"loadtest-{run}-{number}-{seat}")
            for seat in range(players)
        ]
        setup.user_ids += [user.pk for user in users]
        table = table_create(
            owner=users[0], name=f"Load test {run} #{number}", seat_count=max(2, players)
        )
        setup.table_ids.append(table.pk)
        setup.players += [
            Player(table.pk, seat, log_in(user), user.username) for seat, user in enumerate(users)
        ]
    return setup


def clean_up(setup: Setup) -> None:
    """Delete the run's tables (with their seats and hands), sessions and users."""
    with transaction.atomic():
        # Lock the table rows first, in order, as every table service does: the server
        # may still be finishing a hand or a wake-up, and deleting the seats and hands
        # before holding the table would deadlock with it on PostgreSQL.
        list(Table.objects.select_for_update().filter(pk__in=setup.table_ids).order_by("pk"))
        Table.objects.filter(pk__in=setup.table_ids).delete()
    Session.objects.filter(session_key__in=[p.session_key for p in setup.players]).delete()
    User.objects.filter(pk__in=setup.user_ids).delete()


def check_server(base_url: str) -> None:
    """Fail early, in plain words, when nothing answers at ``base_url``."""
    try:
        with urllib.request.urlopen(base_url.rstrip("/") + "/healthz", timeout=5):
            return
    except urllib.error.HTTPError as error:
        raise CommandError(
            f"The server at {base_url} is not healthy (HTTP {error.code} from /healthz)."
        ) from None
    except (OSError, ValueError) as error:
        raise CommandError(
            f"No Felt server answers at {base_url} ({error}); start one with `make run`."
        ) from None


async def play_all(
    clients: list[Client], seconds: float, stats: Stats, warmup: float = 0.0
) -> float:
    """Run every client for ``warmup`` + ``seconds``; returns how long the measured part took."""
    started = time.monotonic()
    deadline = started + warmup + seconds
    stats.measure_from = time.perf_counter() + warmup
    gate = asyncio.Semaphore(CONNECTS_AT_ONCE)
    await asyncio.gather(*(client.run(deadline, gate) for client in clients))
    return time.monotonic() - started - warmup


class Command(BaseCommand):
    help = "Play random legal actions over websockets at N tables and report the round trips."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=positive_int, default=1, help="tables to open")
        parser.add_argument(
            "--seconds", type=positive_float, default=10.0, help="how long to measure"
        )
        parser.add_argument(
            "--warmup",
            type=non_negative_float,
            default=5.0,
            help="seconds played before measuring starts (default 5)",
        )
        parser.add_argument(
            "--url", default="http://127.0.0.1:8000", help="the running server's base URL"
        )
        parser.add_argument("--seed", type=int, default=None, help="seed for a repeatable run")
        parser.add_argument(
            "--think",
            type=non_negative_float,
            default=0.0,
            help="wait a random 0..THINK seconds before each action, like a human (default 0)",
        )
        parser.add_argument(
            "--flood",
            type=non_negative_int,
            default=0,
            help="clients (1-6) at a table of their own that flood it with stale commands",
        )
        parser.add_argument(
            "--no-cleanup",
            dest="cleanup",
            action="store_false",
            help="keep the users, sessions and tables afterwards",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        base_url: str = options["url"]
        check_server(base_url)
        rng = Random(options["seed"])
        setup = create_tables(options["tables"], rng)
        flooding = create_tables(1, rng, size=options["flood"]) if options["flood"] else Setup()
        stats, flood = Stats(), FloodStats()
        try:
            clients = [
                Client(player, base_url, stats, Random(rng.random()), options["think"])
                for player in setup.players
            ]
            clients += [Flooder(player, base_url, flood) for player in flooding.players]
            elapsed = asyncio.run(play_all(clients, options["seconds"], stats, options["warmup"]))
        finally:
            if options["cleanup"]:
                clean_up(setup)
                clean_up(flooding)
        if flooding.players:
            self.stdout.write(flood.report(len(flooding.players)))
        report = stats.report(
            len(setup.table_ids), len(setup.players), elapsed, options["think"], options["warmup"]
        )
        self.stdout.write(report)
        if stats.has_errors:  # the report goes with the error: a caller may not show stdout
            raise CommandError(f"the load test saw errors:\n{report}")

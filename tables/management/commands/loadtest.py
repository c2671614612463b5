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
``flood:`` line what the flooders were told. With ``--reconnect`` too, each
flooder opens a new socket as soon as the server closes one (a 4429, or a
refused handshake) and floods again (``tables/management/flooders.py``);
``--flood-from 127.0.0.2`` has them connect from another loopback address, so
the server's limits per address (config/platform/socket_limits.py) see a stranger.
It prints actions per second, the round-trip p50/p95/p99 and the errors seen,
ending with one ``summary:`` line holding every figure, and fails (exit code 1)
when any client errored. Users, sessions and tables are deleted afterwards
unless ``--no-cleanup``.
"""

from __future__ import annotations

import asyncio
import secrets
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from importlib import import_module
from random import Random
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.models import Session
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from accounts.models import User
from tables.management.arguments import (
    non_negative_float,
    non_negative_int,
    positive_float,
    positive_int,
)
from tables.management.flooders import Flooder, FloodStats, ReconnectingFlooder
from tables.management.load_clients import (
    CONNECTS_AT_ONCE,
    Client,
    Player,
    Stats,
    percentile,
    random_act,
)
from tables.models import Hand, Table
from tables.services import table_create

# The clients are in load_clients.py; the tournaments' load tests and the tests
# import them from here too.
__all__ = [
    "CONNECTS_AT_ONCE",
    "Client",
    "Command",
    "Player",
    "Setup",
    "Stats",
    "check_server",
    "clean_up",
    "create_tables",
    "lock_for_deletion",
    "log_in",
    "percentile",
    "play_all",
    "random_act",
]

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


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


def lock_for_deletion(table_ids: list[int]) -> None:
    """Before deleting tables (in a transaction): their rows, then their hands' rows.

    The server may still be finishing a hand, a wake-up or a hand's all-in EV. The
    table services lock the table first, so the tables go first, in order. The
    all-in EV locks its hand, then the hand's players: deleting the players (a
    cascade deletes them before their hand) while it held the hand deadlocked on
    PostgreSQL, so the hands are taken before anything is deleted.
    """
    list(Table.objects.select_for_update().filter(pk__in=table_ids).order_by("pk"))
    list(Hand.objects.select_for_update().filter(table_id__in=table_ids).order_by("pk"))


def clean_up(setup: Setup) -> None:
    """Delete the run's tables (with their seats and hands), sessions and users."""
    with transaction.atomic():
        lock_for_deletion(setup.table_ids)
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
            "--flood-from",
            default=None,
            metavar="ADDRESS",
            help="a local address for the flooders to connect from, such as 127.0.0.2: the "
            "server then tells them from the measured players, as it would a stranger",
        )
        parser.add_argument(
            "--reconnect",
            action="store_true",
            help="flooders reconnect as soon as they are closed, and flood again",
        )
        parser.add_argument(
            "--no-cleanup",
            dest="cleanup",
            action="store_false",
            help="keep the users, sessions and tables afterwards",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # The flooders are clients of this module's kind, so they import it.

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
            flooder = ReconnectingFlooder if options["reconnect"] else Flooder
            for player in flooding.players:
                clients.append(flooder(player, base_url, flood))
                clients[-1].local_address = options["flood_from"]
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

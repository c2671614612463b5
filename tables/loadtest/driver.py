"""A load run's life: throw-away members and tables, their clients played, all deleted after.

``manage.py loadtest`` is this plus its options and report; ``soak`` and the
tournaments' load tests (``tournaments/loadtest/``) reuse the log-in, the
clean-up and the server check.
"""

from __future__ import annotations

import asyncio
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import import_module
from random import Random
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.models import Session
from django.core.management.base import CommandError
from django.db import transaction

from accounts.models import User
from tables import links
from tables.loadtest.clients import CONNECTS_AT_ONCE, Client, Player, Stats
from tables.models import Hand, Table
from tables.services import table_create

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


# --- setting up and cleaning up (the ORM, outside the event loop) --------------------


def log_in(user: Any, table: Table | None = None) -> str:
    """A session that logs ``user`` in, as the login view would make it, and that came
    by ``table``'s shared link, if given (tables/links.py: a friends' table's socket
    then admits the user); its key."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = MODEL_BACKEND
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    if table is not None:
        links.admit(store, table)
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
            Player(table.pk, seat, log_in(user, table), user.username)
            for seat, user in enumerate(users)
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


# Players a run connects from one address. The server refuses an address that opens
# more than SOCKET_HANDSHAKES_PER_ADDRESS sockets a minute (4430), as it should
# refuse one machine opening thousands; a run's players stand for people on
# machines of their own, so past this many they come from further loopback
# addresses, each its own stranger to the server.
PLAYERS_PER_ADDRESS = 400


def spread_over_addresses(clients: Sequence[Client], base_url: str) -> int:
    """Give ``clients`` loopback addresses to connect from, ``PLAYERS_PER_ADDRESS`` to
    each, when there are more than that and the server is on this machine's loopback;
    returns how many addresses they use."""
    host = urllib.parse.urlsplit(base_url).hostname or ""
    if len(clients) <= PLAYERS_PER_ADDRESS or not host.startswith("127."):
        return 1
    for number, client in enumerate(clients):
        client.local_address = f"127.0.1.{1 + number // PLAYERS_PER_ADDRESS}"
    return 1 + (len(clients) - 1) // PLAYERS_PER_ADDRESS


async def play_all(
    clients: list[Client], seconds: float, stats: Stats, warmup: float = 0.0
) -> float:
    """Run every client for ``warmup`` + ``seconds``; returns how long the measured part took."""
    started = time.monotonic()
    deadline = started + warmup + seconds
    stats.measure_from = time.perf_counter() + warmup
    gate = asyncio.Semaphore(CONNECTS_AT_ONCE)
    measured_from = asyncio.ensure_future(processor_time_after(warmup))
    await asyncio.gather(*(client.run(deadline, gate) for client in clients))
    if measured_from.done():
        stats.client_cpu = time.process_time() - measured_from.result()
    measured_from.cancel()
    return time.monotonic() - started - warmup


async def processor_time_after(warmup: float) -> float:
    """This process's processor time once ``warmup`` seconds have passed."""
    await asyncio.sleep(warmup)
    return time.process_time()

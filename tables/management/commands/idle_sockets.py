"""`python manage.py idle_sockets --tables N --seconds S`: open sockets where nothing happens.

Makes N friends' tables with one throw-away member each (``loadtest``'s set-up,
``tables/loadtest/driver.py``), who opens the table's socket and sits down; with one
player no hand is dealt, so from then on the socket only stays open, as a player's
does while waiting, thinking or watching. Once every socket has had its first
snapshot, and ``--warmup`` seconds more, it prints ``measure: start``, holds every
socket for ``--seconds``, prints ``measure: end`` and closes them:
``scripts/bench_idle.py`` reads the server's processor time at the two lines. It
fails (exit code 1) when a socket could not be opened or was lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from random import Random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.loadtest.clients import CONNECTS_AT_ONCE, Client, Stats
from tables.loadtest.driver import (
    check_server,
    clean_up,
    create_tables,
    spread_over_addresses,
)
from tables.management.arguments import non_negative_float, positive_float, positive_int

START, END = "measure: start", "measure: end"
OPEN_SECONDS = 60.0  # the longest wait for every socket's first snapshot


async def hold(
    clients: list[Client], stats: Stats, warmup: float, seconds: float, say: Callable[[str], None]
) -> None:
    """Every client sits down and holds its socket; ``say`` marks the window, which
    starts ``warmup`` seconds after the last socket's first snapshot: a window that
    caught sockets still opening (a slow machine) measured their handshakes."""
    deadline = time.monotonic() + OPEN_SECONDS + warmup + seconds + 1.0
    gate = asyncio.Semaphore(CONNECTS_AT_ONCE)
    playing = asyncio.gather(*(client.run(deadline, gate) for client in clients))
    opening_ends = time.monotonic() + OPEN_SECONDS
    while stats.snapshots < len(clients) and time.monotonic() < opening_ends:
        await asyncio.sleep(0.2)
    await asyncio.sleep(warmup)
    say(START)
    await asyncio.sleep(seconds)
    say(END)
    if playing.done():  # every client stopped early: its errors are in the stats
        await playing
        return
    playing.cancel()  # the window is over: close the sockets now, not at the deadline
    with contextlib.suppress(asyncio.CancelledError):
        await playing


class Command(BaseCommand):
    help = "Hold N seated players' table sockets open where nothing happens."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=positive_int, default=100, help="one socket each")
        parser.add_argument("--seconds", type=positive_float, default=60.0)
        parser.add_argument(
            "--warmup",
            type=non_negative_float,
            default=10.0,
            help="seconds after every socket opened and sat down, before measuring",
        )
        parser.add_argument("--url", default="http://127.0.0.1:8000")
        parser.add_argument("--seed", type=int, default=None)

    def say(self, line: str) -> None:
        """A line on stdout at once: the benchmark reads the server's time as it comes."""
        self.stdout.write(line)
        self.stdout.flush()

    def handle(self, *args: Any, **options: Any) -> None:
        base_url: str = options["url"]
        check_server(base_url)
        rng = Random(options["seed"])
        setup = create_tables(options["tables"], rng, size=1)
        stats = Stats()
        try:
            clients: list[Client] = [
                Client(player, base_url, stats, Random(rng.random())) for player in setup.players
            ]
            spread_over_addresses(clients, base_url)  # past 400, as loadtest's players
            asyncio.run(hold(clients, stats, options["warmup"], options["seconds"], self.say))
        finally:
            clean_up(setup)
        line = (
            f"idle: {len(clients)} sockets, {stats.connected} opened, {stats.drops} dropped, "
            f"{sum(stats.server_errors.values())} error frames"
        )
        self.say(line)
        if stats.connected < len(clients) or stats.drops or stats.has_errors:
            raise CommandError(line)

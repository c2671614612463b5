"""`python manage.py idle_sockets --tables N --seconds S`: open sockets where nothing happens.

Makes N friends' tables with one throw-away member each (``loadtest``'s set-up,
``tables/loadtest/driver.py``), who opens the table's socket and sits down; with one
player no hand is dealt, so from then on the socket only stays open, as a player's
does while waiting, thinking or watching. Once every player has been shown in their
seat it prints ``measure: seated``; ``--warmup`` seconds later ``measure: start``;
it holds every socket for ``--seconds``, prints ``measure: end`` and closes them.
``scripts/bench_idle.py`` reads the server's processor time at each line: from the
command's start to ``seated`` is what opening the sockets and sitting down cost, from
``start`` to ``end`` what holding them costs. It fails (exit code 1) when a socket
could not be opened or was lost.
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

SEATED, START, END = "measure: seated", "measure: start", "measure: end"
OPEN_SECONDS = 60.0  # the longest wait for every player to be shown seated


class SeatedClient(Client):
    """A client that counts itself, once, in ``seated`` when a snapshot first shows
    it in its seat (a socket's first snapshot comes before it sits down)."""

    seated: set[str]  # the players' names, shared by every client of a run

    def on_frame(self, frame: dict[str, Any], received_at: float) -> list[dict[str, Any]]:
        replies = super().on_frame(frame, received_at)
        is_snapshot = frame.get("type") == "snapshot"
        if is_snapshot and frame["table"]["seats"][self.player.seat].get("is_you"):
            self.seated.add(self.name)
        return replies


async def hold(
    clients: list[SeatedClient],
    stats: Stats,
    warmup: float,
    seconds: float,
    say: Callable[[str], None],
) -> None:
    """Every client sits down and holds its socket; ``say`` marks the moment the last
    one is shown seated, and the window, which starts ``warmup`` seconds later: a
    window that caught sockets still opening (a slow machine) measured their
    handshakes."""
    deadline = time.monotonic() + OPEN_SECONDS + warmup + seconds + 1.0
    gate = asyncio.Semaphore(CONNECTS_AT_ONCE)
    seated: set[str] = set()
    for client in clients:
        client.seated = seated
    playing = asyncio.gather(*(client.run(deadline, gate) for client in clients))
    opening_ends = time.monotonic() + OPEN_SECONDS
    while len(seated) < len(clients) and time.monotonic() < opening_ends:
        await asyncio.sleep(0.05)
    say(SEATED)
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
            clients = [
                SeatedClient(player, base_url, stats, Random(rng.random()))
                for player in setup.players
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

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
refused handshake) and floods again (``tables/loadtest/flooders.py``);
``--flood-from 127.0.0.2`` has them connect from another loopback address, so
the server's limits per address (config/platform/socket_limits.py) see a stranger.
Past 400 players, the players themselves connect from several loopback addresses
(127.0.1.x), 400 from each, as people on machines of their own would.
It prints actions per second, the round-trip p50/p95/p99 and the errors seen,
ending with one ``summary:`` line holding every figure, and fails (exit code 1)
when any client errored. Users, sessions and tables are deleted afterwards
unless ``--no-cleanup``.
"""

from __future__ import annotations

import asyncio
from random import Random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.loadtest.clients import Client, Stats
from tables.loadtest.driver import (
    Setup,
    check_server,
    clean_up,
    create_tables,
    play_all,
    spread_over_addresses,
)
from tables.loadtest.flooders import Flooder, FloodStats, ReconnectingFlooder
from tables.management.arguments import (
    non_negative_float,
    non_negative_int,
    positive_float,
    positive_int,
)


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
            addresses = spread_over_addresses(clients, base_url)
            if addresses > 1:
                self.stdout.write(f"players connect from {addresses} loopback addresses")
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

"""`python manage.py loadtest_mtt --players N`: a club tournament of N websocket clients.

The sibling of ``loadtest_sng``, whose client it extends (the run itself:
tournaments/loadtest/mtt.py). It makes a throw-away
club and N throw-away members (``loadtest-...``, logged in by writing sessions
into the server's database: run it with the server's FELT_HOME / DATABASE_URL),
schedules a freeroll club tournament of ``--seats`` per table, registers
everyone and starts it through ``tournaments.services`` (the draw opens
ceil(N / seats) tables), and connects one websocket per player to their table.
Each client sends a random legal action (after 0..``--think`` seconds) whenever
its snapshot asks, follows its ``table_moved`` notices to the new table (as a
browser does), and stops when told its place. The run ends when the tournament
has a winner (or after ``--timeout`` seconds, an error).

It reports what ``loadtest`` does (actions/s, the round trip p50/p95/p99) and
the rebalance time: for each move, from the end of the hand that called for it
(the ``at`` of the ``table_moved`` notice; client and server share the machine's
clock) to the moved player's first snapshot of the new table (p50/p95/max).
Run ``loadtest --tables K`` beside it for the friends' tables at the same time.
"""

from __future__ import annotations

import asyncio
import time
from random import Random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.loadtest.clients import Stats
from tables.loadtest.driver import check_server
from tables.management.arguments import non_negative_float, positive_float, positive_int
from tournaments.loadtest.mtt import Moves, MttClient, MttSetup, clean_up, create_tournament, play
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Play a club tournament of N websocket clients to a winner; report round trips and moves."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=positive_int, default=60, help="entrants")
        parser.add_argument("--seats", type=positive_int, default=6, help="seats per table")
        parser.add_argument("--think", type=non_negative_float, default=0.0)
        parser.add_argument("--levels", type=positive_float, default=20.0, help="seconds a level")
        parser.add_argument("--timeout", type=positive_float, default=1800.0)
        parser.add_argument("--url", default="http://127.0.0.1:8000")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--no-cleanup", dest="cleanup", action="store_false")
        parser.add_argument(
            "--allow-stale",
            action="store_true",
            help="stale_decision refusals are no error (a moved socket and a deal can cross)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["players"] < 2:
            raise CommandError("a tournament needs two players at least")
        check_server(options["url"])
        rng = Random(options["seed"])
        setup, stats, moves = MttSetup(), Stats(), Moves()
        elapsed = 0.0
        try:
            create_tournament(options["players"], options["seats"], options["levels"], setup)
            clients = [
                MttClient(
                    player,
                    options["url"],
                    stats,
                    Random(rng.random()),
                    options["think"],
                    moves=moves,
                )
                for player in setup.players
            ]
            started, cpu_before = time.monotonic(), time.process_time()
            asyncio.run(play(clients, options["timeout"]))
            elapsed = time.monotonic() - started
            stats.client_cpu = time.process_time() - cpu_before
            status = Tournament.objects.get(pk=setup.tournament_id).status
            if status != Tournament.Status.FINISHED:
                stats.client_errors.append(f"the tournament is {status}, not finished")
        finally:
            if options["cleanup"]:
                clean_up(setup)
        tables = -(-options["players"] // options["seats"])
        report = "\n".join(
            [
                f"tournament: {options['players']} players, finished in {elapsed:.1f} s",
                stats.report(tables, len(setup.players), elapsed, options["think"]),
                moves.report(),
            ]
        )
        self.stdout.write(report)
        if options["allow_stale"]:
            stats.server_errors.pop("stale_decision", None)
        if stats.has_errors:  # the report goes with the error: a caller may not show stdout
            raise CommandError(f"the load test saw errors:\n{report}")

"""`python manage.py loadtest_sng --sngs N`: N sit-n-gos of six websocket clients, to the end.

The sibling of ``loadtest`` (tables/management/commands/loadtest.py), whose
client, measurements and log-in it reuses; the run itself is in
tournaments/loadtest/sng.py. For each SNG it creates six
throw-away users (``loadtest-...``), logs them in by writing sessions into
the server's database (run it with the server's FELT_HOME / DATABASE_URL),
registers them for a freeroll through ``tournaments.services`` (the sixth
registration starts it), and connects one websocket per player to its table.
Each client sends a random legal action (after 0..``--think`` seconds)
whenever its snapshot asks, until it is told its place. The run ends when
every SNG has a winner (or after ``--timeout`` seconds, an error). It reports
actions/s, the round trip p50/p95/p99 (from sending an action to the first
snapshot with a greater seq), and how long the SNGs took.

``--levels S`` makes every level last S seconds (default 20), so SNGs end.
``--bots K`` instead plays K SNGs of six bots in this process with every
delay zero, straight through the services (no server needed), and reports
how long one takes.
"""

from __future__ import annotations

import asyncio
import time
from random import Random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.loadtest.clients import Stats
from tables.loadtest.driver import Setup, check_server
from tables.management.arguments import non_negative_float, positive_float, positive_int
from tournaments.loadtest.sng import SngClient, clean_up, create_sngs, play, sng_of_bots
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Play N sit-n-gos of six websocket clients to a winner and report the round trips."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sngs", type=positive_int, default=1, help="SNGs to play")
        parser.add_argument("--think", type=non_negative_float, default=0.0)
        parser.add_argument("--levels", type=positive_float, default=20.0, help="seconds a level")
        parser.add_argument("--timeout", type=positive_float, default=900.0)
        parser.add_argument("--url", default="http://127.0.0.1:8000")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--bots", type=positive_int, default=0, help="in-process bot SNGs")
        parser.add_argument("--no-cleanup", dest="cleanup", action="store_false")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["bots"]:
            self.bots(options["bots"], options["levels"])
            return
        check_server(options["url"])
        rng = Random(options["seed"])
        setup, tournament_ids = Setup(), list[int]()
        stats = Stats()
        try:
            create_sngs(options["sngs"], options["levels"], setup, tournament_ids)
            clients = [
                SngClient(player, options["url"], stats, Random(rng.random()), options["think"])
                for player in setup.players
            ]
            started, cpu_before = time.monotonic(), time.process_time()
            asyncio.run(play(clients, options["timeout"]))
            elapsed = time.monotonic() - started
            stats.client_cpu = time.process_time() - cpu_before
            unfinished = Tournament.objects.filter(pk__in=tournament_ids).exclude(status="finished")
            if unfinished.exists():
                stats.client_errors.append(f"{unfinished.count()} SNGs did not finish")
        finally:
            if options["cleanup"]:
                clean_up(setup, tournament_ids)
        self.stdout.write(f"sngs: {len(tournament_ids)}, all finished in {elapsed:.1f} s")
        self.stdout.write(
            stats.report(len(setup.table_ids), len(setup.players), elapsed, options["think"])
        )
        if stats.has_errors:
            raise CommandError("the load test saw errors (see above)")

    def bots(self, count: int, level_seconds: float) -> None:
        runs = [sng_of_bots(level_seconds) for _ in range(count)]
        for seconds, hands in runs:
            self.stdout.write(f"six bots, no delays: {hands} hands in {seconds:.2f} s")
        mean = sum(seconds for seconds, _ in runs) / len(runs)
        self.stdout.write(f"summary: {count} SNGs of six bots, mean {mean:.2f} s each")

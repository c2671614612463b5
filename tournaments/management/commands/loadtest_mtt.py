"""`python manage.py loadtest_mtt --players N`: a club tournament of N websocket clients.

The sibling of ``loadtest_sng``, whose client it extends (the run itself:
tournaments/loadtest/mtt.py). It makes a throw-away
club and N throw-away members (``loadtest-...``, logged in by writing sessions
into the server's database: run it with the server's FELT_HOME / DATABASE_URL),
schedules a club tournament of ``--seats`` per table and registers everyone
through ``tournaments.services``, makes it due and queues its start task: the
server starts it (the draw opens ceil(N / seats) tables), and the run connects
one websocket per player to their table.
Each client sends a random legal action (after 0..``--think`` seconds) whenever
its snapshot asks, follows its ``table_moved`` notices to the new table (as a
browser does), and stops when told its place. The run ends when the tournament
has a winner (or after ``--timeout`` seconds, an error).

It reports what ``loadtest`` does (actions/s, the round trip p50/p95/p99) and
the rebalance time: for each move, from the end of the hand that called for it
(the ``at`` of the ``table_moved`` notice; client and server share the machine's
clock) to the moved player's first snapshot of the new table (p50/p95/max).
Run ``loadtest --tables K`` beside it for the friends' tables at the same time.

A freeroll unless given a format: ``--buy-in`` points, ``--rebuys`` per player
until the end of level ``--rebuy-levels``, an ``--add-on`` of that many chips (for
the buy-in) after them, and a ``--bounty`` of the buy-in on each head (and
``--starting-stack``, which a rebuy buys too, for any format). The members
are then granted the club points they may spend (the club admin's grant), every
client rebuys whenever it is out of chips and offered one and takes the add-on,
and the report says what was bought and paid, and whether the club's ledger
still holds every point granted (an error if not). Such a tournament stays after
the clean-up, finished and with no members, as its ledger rows do
(``tournaments/loadtest/mtt.py``, ``clean_up``).
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
from tournaments.errors import BadSettings
from tournaments.loadtest.mtt import (
    Format,
    Moves,
    MttClient,
    MttSetup,
    Purchases,
    clean_up,
    create_tournament,
    play,
)
from tournaments.loadtest.points import Outcome, outcome_of
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
        parser.add_argument("--buy-in", type=int, default=0, help="points (0: a freeroll)")
        parser.add_argument("--bounty", type=int, default=0, help="points of the buy-in")
        parser.add_argument("--rebuys", type=int, default=0, help="per player (0: none)")
        parser.add_argument(
            "--rebuy-levels", type=int, default=2, help="with --rebuys: levels they are sold"
        )
        parser.add_argument(
            "--add-on", type=int, default=0, help="with --rebuys: its chips, for the buy-in"
        )
        parser.add_argument(
            "--starting-stack", type=int, default=None, help="chips (default: the structure's)"
        )
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
        setup, stats, moves, purchases = MttSetup(), Stats(), Moves(), Purchases()
        elapsed, outcome = 0.0, None
        try:
            create(options, setup)
            clients = [
                MttClient(
                    player,
                    options["url"],
                    stats,
                    Random(rng.random()),
                    options["think"],
                    moves=moves,
                    purchases=purchases,
                )
                for player in setup.players
            ]
            started, cpu_before = time.monotonic(), time.process_time()
            asyncio.run(play(clients, options["timeout"]))
            elapsed = time.monotonic() - started
            stats.client_cpu = time.process_time() - cpu_before
            outcome = check_result(setup, stats)
        finally:
            if options["cleanup"]:
                clean_up(setup)
        more = [moves.report(), purchases.report(), *([outcome.report()] if outcome else [])]
        self.report(options, stats, more, outcome, elapsed)

    def report(
        self,
        options: dict[str, Any],
        stats: Stats,
        more: list[str],
        outcome: Outcome | None,
        elapsed: float,
    ) -> None:
        """Print the report: ``loadtest``'s lines, then ``more``, then its summary line
        with what the format sold and paid added."""
        tables = -(-options["players"] // options["seats"])
        clients = options["players"]
        *lines, summary = stats.report(tables, clients, elapsed, options["think"]).split("\n")
        if outcome is not None:
            summary += f", {outcome.summary()}"
        report = "\n".join(
            [
                f"tournament: {options['players']} players, finished in {elapsed:.1f} s",
                *lines,
                *more,
                summary,
            ]
        )
        self.stdout.write(report)
        if options["allow_stale"]:
            stats.server_errors.pop("stale_decision", None)
        if stats.has_errors:  # the report goes with the error: a caller may not show stdout
            raise CommandError(f"the load test saw errors:\n{report}")


def create(options: dict[str, Any], setup: MttSetup) -> None:
    """The started tournament, in the options' format."""
    rules = Format(
        buy_in=options["buy_in"],
        bounty=options["bounty"],
        rebuys=options["rebuys"],
        rebuy_levels=options["rebuy_levels"],
        add_on=options["add_on"],
        stack=options["starting_stack"],
    )
    try:
        create_tournament(options["players"], options["seats"], options["levels"], rules, setup)
    except BadSettings as error:
        raise CommandError(f"not a tournament Felt plays: {error.message}") from None


def check_result(setup: MttSetup, stats: Stats) -> Outcome:
    """What the tournament sold and paid; an error unless it was won and every point
    granted is still accounted for."""
    status = Tournament.objects.get(pk=setup.tournament_id).status
    if status != Tournament.Status.FINISHED:
        stats.client_errors.append(f"the tournament is {status}, not finished")
    outcome = outcome_of(setup.tournament_id, setup.club_id)
    if not outcome.is_conserved:
        stats.client_errors.append(f"the points do not add up: {outcome.report()}")
    return outcome

"""`python manage.py soak`: prove that no table waits with something due.

On a running server (as ``loadtest``: run it with the server's FELT_HOME or
DATABASE_URL and REDIS_URL), it opens ``--practice`` practice tables (one
throw-away member each, against 1 to 5 bots; half of them with automatic
rebuys on) and ``--friends`` friends' tables (2 to 6 members), connects every
member's websocket and answers every decision at once: a call, or a check when
it is free; a player out of chips rebuys at once. For ``--seconds`` it measures
the gap between each wake-up's due time and its application (the next hand, a
bot's move, a clock running out):

- as the server noted it when applying one (``tables/lateness.py``);
- from the database every half second: a wake-up still waiting past due, and
  a table with nothing due at all (tables/loadtest/soak_checks.py).

It also fails when an acting client was timed out, a snapshot between hands
said neither why nor when the next hand comes, a table dealt nothing, a client
saw an error, or chips do not add up afterwards. It ends with one ``summary:``
line; the exit code is 1 when the largest gap reaches ``--max-gap`` (2 s) or
any check fails. What it made is deleted unless ``--no-cleanup``.
"""

from __future__ import annotations

import asyncio
from random import Random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from tables import lateness
from tables.loadtest.driver import Setup, check_server, clean_up, create_tables
from tables.loadtest.soak import Run, create_practice_tables, soak, verdict
from tables.loadtest.soak_checks import hands_dealt
from tables.management.arguments import positive_float


def count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


class Command(BaseCommand):
    help = "Play every decision at once at practice and friends' tables; report wake-up gaps."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--practice", type=count, default=20, help="practice tables")
        parser.add_argument("--friends", type=count, default=20, help="friends' tables")
        parser.add_argument("--seconds", type=positive_float, default=600.0, help="how long")
        parser.add_argument(
            "--max-gap", type=positive_float, default=2.0, help="seconds a wake-up may be late"
        )
        parser.add_argument(
            "--url", default="http://127.0.0.1:8000", help="the running server's base URL"
        )
        parser.add_argument("--seed", type=int, default=None, help="seed for a repeatable run")
        parser.add_argument(
            "--no-cleanup", dest="cleanup", action="store_false", help="keep what it made"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["practice"] + options["friends"] == 0:
            raise CommandError("Soak at least one table (--practice or --friends).")
        base_url: str = options["url"]
        check_server(base_url)
        rng = Random(options["seed"])
        started = timezone.now()
        run = Run(create_practice_tables(options["practice"], rng), Setup())
        try:
            run.friends = create_tables(options["friends"], rng)
            asyncio.run(soak(run, base_url, options["seconds"]))
            lines, failures = verdict(run, hands_dealt(run.table_ids, started), options["max_gap"])
        finally:
            if options["cleanup"]:
                lateness.forget(run.table_ids)
                clean_up(run.practice)
                clean_up(run.friends)
        report = "\n".join(lines)
        self.stdout.write(report)
        if failures:
            raise CommandError("the soak failed:\n" + "\n".join(failures) + "\n" + report)

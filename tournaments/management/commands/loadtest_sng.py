"""`python manage.py loadtest_sng --sngs N`: N sit-n-gos of six websocket clients, to the end.

The sibling of ``loadtest`` (tables/management/commands/loadtest.py), whose
client, measurements and log-in it reuses. For each SNG it creates six
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
import json
import secrets
import time
from random import Random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone
from websockets.asyncio.client import ClientConnection

from accounts.models import User
from tables.management.arguments import non_negative_float, positive_float, positive_int
from tables.management.commands.loadtest import (
    Client,
    Player,
    Setup,
    Stats,
    check_server,
    lock_for_deletion,
    log_in,
)
from tables.models import Seat, Table
from tables.play import hand_state
from tables.services import bot_act, hand_start
from tables.services.bots import bot_name
from tournaments import services
from tournaments.models import Entry, Tournament
from tournaments.services.start import tournament_start

STRUCTURE = "turbo"


class SngClient(Client):
    """A registered player: already seated; plays until told its place."""

    def on_connect(self) -> list[dict[str, Any]]:
        return []

    def rebuy(self, table: dict[str, Any]) -> list[dict[str, Any]]:
        return []  # out is out

    async def play(self, socket: ClientConnection, deadline: float) -> None:
        while (left := deadline - time.monotonic()) > 0:
            text = await asyncio.wait_for(socket.recv(), timeout=left)
            frame = json.loads(text)
            notice = frame.get("notice") or {}
            if frame.get("type") == "notice" and notice.get("kind") == "tournament_place":
                return
            for reply in self.on_frame(frame, time.perf_counter()):
                if self.think > 0:
                    await asyncio.sleep(self.rng.uniform(0, self.think))
                await socket.send(json.dumps(reply))
                self.stats.actions_sent += 1
                self.sent_at = time.perf_counter()
        raise TimeoutError("the sit-n-go did not end in time")


def create_sngs(count: int, level_seconds: float, setup: Setup, ids: list[int]) -> None:
    """``count`` started freeroll SNGs of six fresh logged-in users each; what is made is
    noted in ``setup`` and ``ids`` as it is made, so a failure half-way cleans up too."""
    run = secrets.token_hex(3)
    for number in range(count):
        tournament = open_sng(level_seconds)
        ids.append(tournament.pk)
        users = [
            User.objects.create_user(username=f"loadtest-{run}-{number}-{seat}")
            for seat in range(6)
        ]
        setup.user_ids += [user.pk for user in users]
        for user in users:
            services.tournament_register(tournament_id=tournament.pk, user=user)
        table = Table.objects.get(tournament=tournament)
        setup.table_ids.append(table.pk)
        seats = {s.user_id: s.number for s in Seat.objects.filter(table=table)}
        setup.players += [Player(table.pk, seats[u.pk], log_in(u), u.username) for u in users]


def open_sng(level_seconds: float) -> Tournament:
    """The lobby's open turbo freeroll (opened if missing), with the run's level length."""
    with transaction.atomic():
        tournament = Tournament.objects.filter(
            kind="sng", status="registering", structure=STRUCTURE, buy_in=0
        ).first() or services.sng_open(structure=STRUCTURE, buy_in=0)
        if tournament.entries.exists():
            raise CommandError("the open turbo freeroll has members registered: run elsewhere")
        tournament.level_seconds = level_seconds
        tournament.save(update_fields=["level_seconds"])
    return tournament


def clean_up(setup: Setup, tournament_ids: list[int]) -> None:
    from django.contrib.sessions.models import Session

    with transaction.atomic():
        list(Tournament.objects.select_for_update().filter(pk__in=tournament_ids).order_by("pk"))
        lock_for_deletion(setup.table_ids)
        Tournament.objects.filter(pk__in=tournament_ids).delete()
    Session.objects.filter(session_key__in=[p.session_key for p in setup.players]).delete()
    User.objects.filter(pk__in=setup.user_ids).delete()


def sng_of_bots(level_seconds: float) -> tuple[float, int]:
    """One SNG of six bots played to the end through the services with no delay at all:
    (seconds, hands)."""
    tournament = Tournament.objects.create(
        kind=Tournament.Kind.PRACTICE, structure=STRUCTURE, level_seconds=level_seconds
    )
    for index in range(6):
        name = bot_name(index)
        Entry.objects.create(tournament=tournament, is_bot=True, bot_name=name, name=name)
    started = time.perf_counter()
    with transaction.atomic():
        table = tournament_start(tournament=tournament, now=timezone.now())
    while Tournament.objects.get(pk=tournament.pk).status == "running":
        table.refresh_from_db()
        state = hand_state(table)
        if state is None or state.is_over:
            hand_start(table_id=table.pk, seq=table.seq)
        else:
            bot_act(table_id=table.pk, seq=table.seq)
    elapsed = time.perf_counter() - started
    table.refresh_from_db()
    hands = table.hand_number
    Tournament.objects.filter(pk=tournament.pk).delete()
    return elapsed, hands


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
            started = time.monotonic()
            asyncio.run(self.play(clients, options["timeout"]))
            elapsed = time.monotonic() - started
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

    async def play(self, clients: list[SngClient], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        gate = asyncio.Semaphore(20)
        await asyncio.gather(*(client.run(deadline, gate) for client in clients))

    def bots(self, count: int, level_seconds: float) -> None:
        runs = [sng_of_bots(level_seconds) for _ in range(count)]
        for seconds, hands in runs:
            self.stdout.write(f"six bots, no delays: {hands} hands in {seconds:.2f} s")
        mean = sum(seconds for seconds, _ in runs) / len(runs)
        self.stdout.write(f"summary: {count} SNGs of six bots, mean {mean:.2f} s each")

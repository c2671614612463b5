"""`python manage.py loadtest_mtt --players N`: a club tournament of N websocket clients.

The sibling of ``loadtest_sng``, whose client it extends. It makes a throw-away
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
import json
import re
import secrets
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from random import Random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone
from websockets.asyncio.client import ClientConnection

from accounts.models import User
from tables.management.arguments import non_negative_float, positive_float, positive_int
from tables.management.commands.loadtest import (
    CONNECTS_AT_ONCE,
    Player,
    Stats,
    check_server,
    lock_for_deletion,
    log_in,
    percentile,
)
from tables.models import Seat, Table
from tournaments import services
from tournaments.clubs import services as club_services
from tournaments.management.commands.loadtest_sng import SngClient
from tournaments.models import Club, Tournament
from tournaments.tournament_settings import TournamentSettings

_TABLE_URL = re.compile(r"^/tables/(\d+)/$")


@dataclass
class Moves:
    """Rebalance times seen by the clients, in seconds."""

    times: list[float] = field(default_factory=list)

    def report(self) -> str:
        if not self.times:
            return "moves: none seen"
        ms = [t * 1000 for t in self.times]
        figures = ", ".join(f"p{p} {percentile(ms, p):.1f}" for p in (50, 95))
        return (
            f"moves: {len(ms)}, hand end to the new table's snapshot ms: {figures}, "
            f"max {max(ms):.1f}"
        )


class MttClient(SngClient):
    """A registered player: plays where they are seated and follows every move."""

    def __init__(self, *args: Any, moves: Moves, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.moves = moves
        self.moved_at: float | None = None  # the server's time of a move being timed
        self.is_out = False

    async def run(self, deadline: float, gate: asyncio.Semaphore) -> None:
        """One socket per table the player sits at, until they are out or it is won."""
        while not self.is_out and time.monotonic() < deadline:
            before = self.player.table_id
            await super().run(deadline, gate)
            if self.player.table_id == before:  # not moved: out, or the run is over
                return

    async def play(self, socket: ClientConnection, deadline: float) -> None:
        while (left := deadline - time.monotonic()) > 0:
            frame = json.loads(await asyncio.wait_for(socket.recv(), timeout=left))
            received_at = time.perf_counter()
            notice = frame.get("notice") or {}
            if frame.get("type") == "notice" and notice.get("kind") == "tournament_place":
                self.is_out = True
                return
            if frame.get("type") == "notice" and notice.get("kind") == "table_moved":
                self.follow(notice["url"], datetime.fromisoformat(notice["at"]).timestamp())
                return
            self.time_move(frame)
            for reply in self.on_frame(frame, received_at):
                if self.think > 0:
                    await asyncio.sleep(self.rng.uniform(0, self.think))
                await socket.send(json.dumps(reply))
                self.stats.actions_sent += 1
                self.sent_at = time.perf_counter()
        raise TimeoutError("the tournament did not end in time")

    def follow(self, url: str, moved_at: float) -> None:
        """To the new table; ``moved_at``: the server's time of the move (the end of the
        hand that called for it; same machine, same clock)."""
        found = _TABLE_URL.match(url)
        if found is None:
            raise ValueError(f"a move to an unreadable address: {url}")
        self.player = Player(int(found[1]), -1, self.player.session_key, self.player.username)
        self.moved_at = moved_at
        self.acted_on = None

    def time_move(self, frame: dict[str, Any]) -> None:
        if frame.get("type") == "snapshot" and self.moved_at is not None:
            self.moves.times.append(time.time() - self.moved_at)
            self.moved_at = None


@dataclass
class MttSetup:
    players: list[Player] = field(default_factory=list)
    user_ids: list[int] = field(default_factory=list)
    club_id: int = 0  # 0: not made yet (no row has that id)
    tournament_id: int = 0


def create_tournament(count: int, seats: int, level_seconds: float, setup: MttSetup) -> None:
    """A started club freeroll of ``count`` fresh logged-in members; what is made is noted
    in ``setup`` as it is made, so a failure half-way cleans up too."""
    run = secrets.token_hex(3)
    users = [User.objects.create_user(username=f"loadtest-{run}-{n}") for n in range(count)]
    setup.user_ids += [user.pk for user in users]
    club = club_services.club_create(user=users[0], name=f"loadtest-{run}")
    setup.club_id = club.pk
    for user in users[1:]:
        club_services.club_join(slug=club.slug, user=user, token=club.invite_token)
    # An hour ahead, so the server's sweep cannot start it while members register; then
    # it is made due now and started here.
    starts_at = timezone.now() + timedelta(hours=1)
    tournament = club_services.club_tournament_schedule(
        slug=club.slug,
        admin=users[0],
        settings=TournamentSettings(
            name=f"Load test {run}",
            starts_at=starts_at,
            seats_per_table=seats,
            max_entrants=count,
            level_seconds=level_seconds,
        ),
    )
    setup.tournament_id = tournament.pk
    for user in users:
        services.tournament_register(tournament_id=tournament.pk, user=user)
    now = timezone.now()
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=now)
    services.mtt_start(tournament_id=tournament.pk, now=now)
    seats_of = dict(
        Seat.objects.filter(table__tournament=tournament).values_list("user_id", "table_id")
    )
    setup.players += [Player(seats_of[u.pk], -1, log_in(u), u.username) for u in users]


def clean_up(setup: MttSetup) -> None:
    from django.contrib.sessions.models import Session

    with transaction.atomic():
        found = Tournament.objects.select_for_update().filter(pk=setup.tournament_id)
        if found.exists():
            tables = Table.objects.filter(tournament_id=setup.tournament_id)
            lock_for_deletion(list(tables.values_list("pk", flat=True)))
            found.delete()
        Club.objects.filter(pk=setup.club_id).delete()
    Session.objects.filter(session_key__in=[p.session_key for p in setup.players]).delete()
    User.objects.filter(pk__in=setup.user_ids).delete()


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
            started = time.monotonic()
            asyncio.run(self.play(clients, options["timeout"]))
            elapsed = time.monotonic() - started
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

    async def play(self, clients: list[MttClient], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        gate = asyncio.Semaphore(CONNECTS_AT_ONCE)
        await asyncio.gather(*(client.run(deadline, gate) for client in clients))

"""Club tournament load runs: a throw-away club's freeroll of N websocket clients that
follow their moves between tables; ``manage.py loadtest_mtt`` parses and prints.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from websockets.asyncio.client import ClientConnection

from accounts.models import User
from tables.loadtest.clients import CONNECTS_AT_ONCE, Player, percentile
from tables.loadtest.driver import lock_for_deletion, log_in
from tables.models import Seat, Table
from tournaments import services
from tournaments.clubs import services as club_services
from tournaments.loadtest.sng import SngClient
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
                self.note_sent(reply)
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


async def play(clients: list[MttClient], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    gate = asyncio.Semaphore(CONNECTS_AT_ONCE)
    await asyncio.gather(*(client.run(deadline, gate) for client in clients))

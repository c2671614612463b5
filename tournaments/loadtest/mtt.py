"""Club tournament load runs: a throw-away club's tournament of N websocket clients that
follow their moves between tables; ``manage.py loadtest_mtt`` parses and prints.

A freeroll by default. A ``Format`` with a buy-in, rebuys (and an add-on) and a bounty
makes a rebuy and knockout tournament: its members are granted the club points it may
take from them, as the club's admin grants points, and its clients rebuy when out of
chips in the rebuy period and take the add-on, as the table page's buttons do.
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

from accounts.models import PointsEntry, User
from tables.loadtest.clients import CONNECTS_AT_ONCE, Player, percentile
from tables.loadtest.driver import lock_for_deletion, log_in
from tables.models import Seat, Table
from tournaments import services, tasks
from tournaments.clubs import services as club_services
from tournaments.loadtest.sng import SngClient
from tournaments.models import Club, Tournament
from tournaments.tournament_settings import TournamentSettings

_TABLE_URL = re.compile(r"^/tables/(\d+)/$")
START_TIMEOUT = 60.0  # seconds for the server to start the tournament once it is due
GRANT_REASON = "Load test: the buy-in, every rebuy and the add-on"


@dataclass(frozen=True)
class Format:
    """The tournament's format, as ``TournamentSettings`` has it: up to ``rebuys`` per
    player until the end of level ``rebuy_levels``, each the starting stack for the
    buy-in; then an add-on of ``add_on`` chips for the buy-in (0: none); ``bounty``
    points of each buy-in on the player's head. All 0: a freeroll. ``stack``: the
    starting stack (None: the structure's)."""

    buy_in: int = 0
    bounty: int = 0
    rebuys: int = 0
    rebuy_levels: int = 0
    add_on: int = 0
    stack: int | None = None

    @property
    def points_each(self) -> int:
        """The most a player can spend: the buy-in, every rebuy and the add-on."""
        return self.buy_in * (1 + self.rebuys) + (self.buy_in if self.add_on else 0)

    def settings(self, **others: Any) -> TournamentSettings:
        """A tournament's settings in this format, with ``others`` (its name, ...)."""
        return TournamentSettings(
            **others,
            starting_stack=self.stack,
            buy_in=self.buy_in,
            bounty=self.bounty,
            rebuy_levels=self.rebuy_levels if self.rebuys else 0,
            max_rebuys=self.rebuys,
            addon_chips=self.add_on,
            addon_price=self.buy_in if self.add_on else 0,
        )


@dataclass
class Moves:
    """Rebalance times seen by the clients, in seconds, and the messages refused because
    their player had been moved away from that table as they came (``not_seated``)."""

    times: list[float] = field(default_factory=list)
    crossed: int = 0

    def report(self) -> str:
        if not self.times:
            return f"moves: none seen, {self.crossed} messages crossed one"
        ms = [t * 1000 for t in self.times]
        figures = ", ".join(f"p{p} {percentile(ms, p):.1f}" for p in (50, 95))
        return (
            f"moves: {len(ms)}, hand end to the new table's snapshot ms: {figures}, "
            f"max {max(ms):.1f}; {self.crossed} messages crossed one"
        )


@dataclass
class Purchases:
    """The rebuys and add-ons the clients asked for, and those refused because the offer
    had closed as they came (the level changed, the player went all in)."""

    asked: int = 0
    crossed: int = 0

    def report(self) -> str:
        return f"purchases: {self.asked} asked for, {self.crossed} crossed the offer's end"


class MttClient(SngClient):
    """A registered player: plays where they are seated and follows every move."""

    def __init__(self, *args: Any, moves: Moves, purchases: Purchases, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.moves = moves
        self.purchases = purchases
        self.moved_at: float | None = None  # the server's time of a move being timed
        self.is_out = False
        self.has_added_on = False

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

    def on_frame(self, frame: dict[str, Any], received_at: float) -> list[dict[str, Any]]:
        """Two refusals are no error here: a purchase sent when a snapshot offered it,
        the offer closed since; and a message to a table the player has just been moved
        from, the notice on its way (a cut's, the base class counts)."""
        code = frame.get("code") if frame.get("type") == "error" else None
        if code == "cannot_buy_chips":
            self.purchases.crossed += 1
            return []
        if code == "not_seated" and not self.cuts_unanswered:
            self.moves.crossed += 1
            return []
        return super().on_frame(frame, received_at)

    def rebuy(self, table: dict[str, Any]) -> list[dict[str, Any]]:
        """Out of chips and offered a rebuy: rebuy, once an offer; the add-on, once, while
        it is sold (``your_purchases``, as static/js/purchases.js shows them)."""
        offer = table.get("your_purchases") or {}
        if not (offer.get("rebuy") or {}).get("until"):
            self.is_rebuying = False  # no offer waits (or none any more)
        elif not self.is_rebuying:
            self.is_rebuying = True
            self.purchases.asked += 1
            return [{"type": "rebuy"}]
        if offer.get("add_on") and not self.has_added_on:
            self.has_added_on = True
            self.purchases.asked += 1
            return [{"type": "add_on"}]
        return []

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


def create_tournament(
    count: int, seats: int, level_seconds: float, rules: Format, setup: MttSetup
) -> None:
    """A started club tournament of ``count`` fresh logged-in members, played by
    ``rules``; what is made is noted in ``setup`` as it is made, so a failure half-way
    cleans up too.

    The members are granted what ``rules`` may take from them as a club admin grants
    points, and the server starts the tournament (its start task), so every hand is
    the server's own, whichever commit it runs."""
    run = secrets.token_hex(3)
    users = [User.objects.create_user(username=f"loadtest-{run}-{n}") for n in range(count)]
    setup.user_ids += [user.pk for user in users]
    club = club_services.club_create(user=users[0], name=f"loadtest-{run}")
    setup.club_id = club.pk
    for user in users[1:]:
        club_services.club_join(slug=club.slug, user=user, token=club.invite_token)
    if rules.points_each:
        club_services.club_points_grant_all(
            slug=club.slug, admin=users[0], amount=rules.points_each, reason=GRANT_REASON
        )
    # An hour ahead, so the server cannot start it while members register; then it is
    # made due now, and its start queued.
    tournament = club_services.club_tournament_schedule(
        slug=club.slug,
        admin=users[0],
        settings=rules.settings(
            name=f"Load test {run}",
            starts_at=timezone.now() + timedelta(hours=1),
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
    tasks.queue_start(tournament.pk, now)
    wait_until_started(tournament.pk)
    seats_of = dict(
        Seat.objects.filter(table__tournament=tournament).values_list("user_id", "table_id")
    )
    setup.players += [Player(seats_of[u.pk], -1, log_in(u), u.username) for u in users]


def wait_until_started(tournament_id: int) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while Tournament.objects.get(pk=tournament_id).status == Tournament.Status.REGISTERING:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the server did not start the tournament in {START_TIMEOUT:g} s")
        time.sleep(0.1)


def clean_up(setup: MttSetup) -> None:
    """Delete what the run made. A tournament that moved points stays, with its club and
    its ledger rows, which are never deleted and hold it (``PointsEntry.tournament``);
    its tables go, and its members, whose rows then name nobody, as after a closed
    account. One not finished is first cancelled as an admin would: its pool goes
    back and the server deals no more of it."""
    from django.contrib.sessions.models import Session

    found = Tournament.objects.filter(pk=setup.tournament_id).first()
    has_points = PointsEntry.objects.filter(tournament_id=setup.tournament_id).exists()
    if found is not None and has_points and not found.is_over:
        services.tournament_cancel(tournament_id=found.pk)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().filter(pk=setup.tournament_id)
        if locked.exists():
            tables = Table.objects.filter(tournament_id=setup.tournament_id)
            lock_for_deletion(list(tables.values_list("pk", flat=True)))
            if has_points:
                tables.delete()
            else:
                locked.delete()  # with its tables
        if not Tournament.objects.filter(club_id=setup.club_id).exists():
            Club.objects.filter(pk=setup.club_id).delete()
    Session.objects.filter(session_key__in=[p.session_key for p in setup.players]).delete()
    User.objects.filter(pk__in=setup.user_ids).delete()


async def play(clients: list[MttClient], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    gate = asyncio.Semaphore(CONNECTS_AT_ONCE)
    await asyncio.gather(*(client.run(deadline, gate) for client in clients))

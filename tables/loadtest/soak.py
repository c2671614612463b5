"""A soak run: practice and friends' tables whose members answer at once, watched for
wake-ups applied late; ``manage.py soak`` parses its options and prints ``verdict``.

The database checks are in ``soak_checks.py``; the clients build on the load
test's (``clients.py``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import secrets
import time
from collections import Counter
from dataclasses import dataclass, field
from random import Random
from statistics import median
from typing import Any

from django.db import connections
from django.utils import timezone

from accounts.models import User
from tables import lateness
from tables.loadtest.clients import CONNECTS_AT_ONCE, Client, Player, Stats
from tables.loadtest.driver import Setup, log_in
from tables.loadtest.soak_checks import Watch, chip_problems
from tables.services import table_create_practice

SAMPLE_SECONDS = 0.5


@dataclass
class SoakStats(Stats):
    """What the clients saw, beyond the load test's figures."""

    timed_out: Counter[int] = field(default_factory=Counter)  # by table
    silent: list[str] = field(default_factory=list)  # between hands, saying nothing
    rebuys: int = 0


class SoakClient(Client):
    """Calls everything at once and rebuys the moment it is out of chips."""

    stats: SoakStats

    def __init__(self, player: Player, base_url: str, stats: SoakStats, on_connect: list[Any]):
        super().__init__(player, base_url, stats, Random(0))
        self.first_messages = on_connect
        self.is_timed_out = False
        self.rebuy_asked_at: int | None = None  # the hand number it was busted after

    def on_connect(self) -> list[dict[str, Any]]:
        return self.first_messages

    def choose(self, legal: dict[str, Any], decision: str) -> dict[str, Any]:
        action = "check" if legal["can_check"] else "call"
        return {"type": "act", "action": action, "decision": decision}

    def on_frame(self, frame: dict[str, Any], received_at: float) -> list[dict[str, Any]]:
        if frame.get("type") == "snapshot":
            self.look(frame["table"])
        return super().on_frame(frame, received_at)

    def look(self, table: dict[str, Any]) -> None:
        mine = table["seats"][self.player.seat]
        was_timed_out, self.is_timed_out = self.is_timed_out, bool(mine.get("has_timed_out"))
        if self.is_timed_out and not was_timed_out and mine.get("is_you"):
            self.stats.timed_out[self.player.table_id] += 1
        between_hands = table["hand"] is None or table["hand"]["is_over"]
        if between_hands and not table["next_hand_at"] and not table["waiting_for"]:
            self.stats.silent.append(f"table {table['id']} seq {table['seq']}")

    def rebuy(self, table: dict[str, Any]) -> list[dict[str, Any]]:
        mine = table["seats"][self.player.seat]
        between_hands = table["hand"] is None or table["hand"]["is_over"]
        if not mine.get("is_you") or mine["stack"] > 0 or not between_hands:
            return []
        if self.rebuy_asked_at == table["hand_number"]:
            return []  # asked already after this hand
        self.rebuy_asked_at = table["hand_number"]
        self.stats.rebuys += 1
        return [{"type": "rebuy"}]


def create_practice_tables(count: int, rng: Random) -> Setup:
    """``count`` practice tables, each with a fresh logged-in member and 1-5 bots."""
    run = secrets.token_hex(3)
    setup = Setup()
    for number in range(count):
        user = User.objects.create_user(username=f"soak-{run}-practice-{number}")
        table = table_create_practice(user=user, bots=rng.randint(1, 5))
        setup.user_ids.append(user.pk)
        setup.table_ids.append(table.pk)
        setup.players.append(Player(table.pk, 0, log_in(user), user.username))
    return setup


@dataclass
class Run:
    """One soak: the tables, what was seen, and the verdict."""

    practice: Setup
    friends: Setup
    stats: SoakStats = field(default_factory=SoakStats)
    watch: Watch = field(default_factory=Watch)

    @property
    def table_ids(self) -> list[int]:
        return self.practice.table_ids + self.friends.table_ids

    def clients(self, base_url: str) -> list[SoakClient]:
        clients = []
        for player in self.practice.players:  # seated already; every other one rebuys by itself
            automatic = [{"type": "auto_rebuy", "on": True}] if player.table_id % 2 else []
            clients.append(SoakClient(player, base_url, self.stats, automatic))
        for player in self.friends.players:
            sit = [{"type": "sit", "seat": player.seat}]
            clients.append(SoakClient(player, base_url, self.stats, sit))
        return clients


async def soak(run: Run, base_url: str, seconds: float) -> None:
    """Every client plays for ``seconds`` while the watch samples the database."""
    deadline = time.monotonic() + seconds
    # The ORM on a thread of its own (not in the event loop), its connection closed after.
    database = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="soak-watch")
    loop = asyncio.get_running_loop()

    async def watch() -> None:
        while time.monotonic() < deadline:
            await loop.run_in_executor(database, run.watch.sample, run.table_ids, timezone.now())
            await asyncio.sleep(SAMPLE_SECONDS)

    gate = asyncio.Semaphore(CONNECTS_AT_ONCE)
    try:
        await asyncio.gather(
            watch(), *(client.run(deadline, gate) for client in run.clients(base_url))
        )
    finally:
        await loop.run_in_executor(database, connections.close_all)
        database.shutdown()


def verdict(run: Run, hands: dict[int, int], max_gap: float) -> tuple[list[str], list[str]]:
    """(report lines, failures) once the clients have stopped."""
    noted = lateness.largest(run.table_ids)
    gaps = {t: max(noted[t], run.watch.overdue.get(t, 0.0)) for t in run.table_ids}
    worst = max(gaps, key=lambda t: gaps[t])
    idlest = max(run.table_ids, key=lambda t: run.watch.idle.get(t, 0.0))
    idle = run.watch.idle.get(idlest, 0.0)
    checked, chips = chip_problems(run.table_ids)
    errors = (
        sum(run.stats.server_errors.values())
        + len(run.stats.client_errors)
        + run.stats.server_failures
    )
    still_waiting = max(run.watch.overdue.values(), default=0.0)
    lines = [
        f"tables: {len(run.practice.table_ids)} practice, {len(run.friends.table_ids)} friends'; "
        f"hands dealt {sum(hands.values())} (per table: least {min(hands.values())}, "
        f"median {median(hands.values()):g}); rebuys asked {run.stats.rebuys}",
        f"largest gap from a wake-up's due time to its application, per table: "
        f"median {median(gaps.values()) * 1000:.0f} ms, largest {gaps[worst] * 1000:.0f} ms "
        f"(table {worst}; noted by the server {max(noted.values()) * 1000:.0f} ms, still waiting "
        f"in {run.watch.samples} samples {still_waiting * 1000:.0f} ms)",
        f"longest with nothing due: {idle:.1f} s (table {idlest})",
        f"acting clients timed out: {sum(run.stats.timed_out.values())}; "
        f"snapshots between hands saying nothing: {len(run.stats.silent)}",
        f"chips: {'conserved' if not chips else 'NOT conserved'} over {checked} hands",
        run.stats.reconnect_line(),
    ]
    failures: list[str] = []
    if gaps[worst] >= max_gap:
        failures.append(f"table {worst} applied a wake-up {gaps[worst]:.2f} s late")
    if idle >= max_gap:
        failures.append(f"table {idlest} had nothing due for {idle:.1f} s")
    failures += [f"table {t} dealt no hand" for t, n in hands.items() if n == 0]
    failures += [f"a client at table {t} was timed out" for t in run.stats.timed_out]
    failures += [f"{where} said neither why nor when" for where in run.stats.silent[:5]]
    failures += chips[:10]
    if errors:
        failures.append(
            f"{errors} errors (server: {dict(run.stats.server_errors)}; "
            f"failed handshakes: {dict(run.stats.failed_handshakes)})"
        )
        failures += run.stats.client_errors[:5]
    lines.append(
        f"summary: practice {len(run.practice.table_ids)}, friends {len(run.friends.table_ids)}, "
        f"hands {sum(hands.values())}, largest gap {gaps[worst]:.3f} s, "
        f"idle {idle:.1f} s, timed out {sum(run.stats.timed_out.values())}, "
        f"silent {len(run.stats.silent)}, chips {'ok' if not chips else 'WRONG'}, errors {errors}, "
        f"reconnects {len(run.stats.reconnects)}"
    )
    return lines, failures

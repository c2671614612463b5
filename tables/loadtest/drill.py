"""A fault drill's run: the soak's players play on while faults are made in turn, and
each fault is judged on what they saw (``faults.py``).

``scripts/fault_drill.py`` starts the servers and says how to break and mend
each (a ``Fault``); this module knows nothing of processes. Its players are
the soak's (practice and friends' tables, every decision answered at once),
connected through ``base_url`` (the proxy, or the one node).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random

from tables.loadtest.clients import CONNECTS_AT_ONCE
from tables.loadtest.driver import Setup, create_tables
from tables.loadtest.faults import (
    Books,
    DrillClient,
    FaultResult,
    Progress,
    Tally,
    Visitor,
    judge,
    read_books,
    with_the_database,
)
from tables.loadtest.soak import Run, SoakStats, create_practice_tables

SETTLE_SECONDS = 2.0  # after every table moved: the fault's last frames and errors
RUN_FOR_A_DAY = 86_400.0  # the players' deadline: the drill stops them itself
STOP_RETRY_SECONDS = 1.0  # a player still running this long after it was cancelled


@dataclass
class Fault:
    """One fault: ``make`` breaks a server and returns once it is back (at once for a
    node killed for good); ``mend`` puts things back after the fault's window (starts
    the killed node again) and says what it did."""

    name: str
    make: Callable[[], object]
    mend: Callable[[], list[str]] = list  # what it did, for the report


@dataclass
class Drill:
    """The players, what they see, and the faults' results."""

    run: Run
    base_url: str
    server_log: Callable[[], Counter[str]]  # what the servers' logs said so far, counted
    stats: SoakStats = field(default_factory=SoakStats)
    progress: Progress = field(default_factory=Progress)
    visitor: Visitor = field(default_factory=Visitor)
    clients: list[DrillClient] = field(default_factory=list)
    results: list[FaultResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.run.stats = self.stats
        for player in self.run.practice.players:  # every other one rebuys by itself
            automatic = [{"type": "auto_rebuy", "on": True}] if player.table_id % 2 else []
            self.clients.append(
                DrillClient(player, self.base_url, self.stats, automatic, self.progress)
            )
        for player in self.run.friends.players:
            sit = [{"type": "sit", "seat": player.seat}]
            self.clients.append(DrillClient(player, self.base_url, self.stats, sit, self.progress))

    @property
    def table_ids(self) -> list[int]:
        return self.run.table_ids

    def tally(self) -> Tally:
        return Tally.of(self.stats, self.visitor, self.clients)

    def moved_since(self, moment: float) -> list[int]:
        return [t for t in self.table_ids if self.progress.first_move_after(t, moment) is None]

    async def until_every_table_moved(self, since: float, seconds: float) -> list[int]:
        """Waits up to ``seconds`` for every table to move after ``since``; the ones
        that did not."""
        deadline = time.monotonic() + seconds
        while (stuck := self.moved_since(since)) and time.monotonic() < deadline:
            await asyncio.sleep(0.25)
        return stuck

    async def books(self) -> Books:
        return await asyncio.to_thread(with_the_database, lambda: read_books(self.table_ids))

    async def one(self, fault: Fault, origin: float, watch: float) -> FaultResult:
        books_before, tally_before, log_before = await self.books(), self.tally(), self.server_log()
        started = time.monotonic()
        await asyncio.to_thread(fault.make)
        back = time.monotonic()
        await self.until_every_table_moved(back, watch)
        await asyncio.sleep(SETTLE_SECONDS)
        tally_after, log_after = self.tally(), self.server_log()
        books_after = await self.books()
        result = judge(
            fault.name,
            window=(started, back, time.monotonic()),
            progress=self.progress,
            table_ids=self.table_ids,
            counts=(tally_before, tally_after),
            stats=self.stats,
            books=(books_before, books_after),
            server_log=(log_before, log_after),
        )
        return dataclasses.replace(result, started_at=started - origin)

    async def play(self, faults: list[Fault], *, steady: float, watch: float) -> None:
        """Every player plays; after ``steady`` seconds each fault is made in turn and
        watched for up to ``watch`` seconds, then mended, and play goes on ``steady``
        seconds more before the next."""
        origin = time.monotonic()
        deadline = origin + RUN_FOR_A_DAY
        gate = asyncio.Semaphore(CONNECTS_AT_ONCE)
        visiting = self.clients[-1].player  # a member (at a friends' table, if any) reloading
        playing = [asyncio.create_task(c.run(deadline, gate)) for c in self.clients]
        playing.append(asyncio.create_task(self.visitor.run(self.base_url, visiting, deadline)))
        try:
            await asyncio.sleep(steady)
            if stuck := self.moved_since(origin):
                self.notes.append(f"before any fault, tables {stuck} had not dealt")
            for number, fault in enumerate(faults, 1):
                result = await self.one(fault, origin, watch)
                self.results.append(result)
                mended = time.monotonic()
                result.notes += await asyncio.to_thread(fault.mend)
                if number == len(faults):
                    break
                if stuck := await self.until_every_table_moved(mended, watch):
                    result.notes.append(f"once mended, tables {stuck} still did not play")
                await asyncio.sleep(steady)
        finally:
            await stop_all(playing)


async def stop_all(tasks: list[asyncio.Task[None]]) -> None:
    """Cancels ``tasks`` until every one has ended: a task can miss a cancellation
    (Python 3.11's ``asyncio.wait_for`` swallows one that arrives as its awaitable
    finishes), and one cancellation then left a drill waiting on players who played
    on."""
    running = {task for task in tasks if not task.done()}
    while running:
        for task in running:
            task.cancel()
        _, running = await asyncio.wait(running, timeout=STOP_RETRY_SECONDS)


def drill_tables(practice: int, friends: int, rng: Random) -> Run:
    """The soak's tables for a drill (``soak.py``)."""
    run = Run(create_practice_tables(practice, rng), Setup())
    run.friends = create_tables(friends, rng)
    return run

"""One table's commands in one process, timed: ``python scripts/bench_actions.py
[--hands 200] [--runs 3] [--profile FILE]``.

A friends' table of six members on a fresh SQLite database (a temporary
``FELT_HOME``) plays ``--hands`` hands through the same service functions a
socket's commands reach (``services.hand_act``, ``services.hand_start``),
each with the group messages its commit builds (every viewer's snapshot,
encoded), collected rather than sent, as a table command's are
(``config/platform/broadcast.py``). The players' choices come from a seeded
random generator over the engine's legal actions, so every run, and a run at
another commit, plays the same hands while the rules are unchanged.

Prints the median processor time of an ordinary action (one that does not end
the hand) and of a hand's deal, per run, then the medians over the runs: the
process's own time, which other work on a busy machine disturbs less than the
clock on the wall. With
``--profile`` the last run's timed commands (the deals and actions, not the
bench's own reads between them) are written as a cProfile file for ``pstats``.

The wake-up scheduler is replaced by one that does nothing: a live server
keeps the wake-up on its event loop's timer once the command is back
(tables/wake_timers.py), so it is not on the command's own path. The cache is
a Redis of the run's own, as ``make run`` starts it
(``config/platform/embedded.py``), in the temporary home.

Compare two commits turn about, in one sitting, by running this file from each
tree alternately (docs/performance.md, "Measuring").
"""

from __future__ import annotations

import argparse
import cProfile
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
os.environ.setdefault("SECRET_KEY", "bench-actions-only")
os.environ.pop("DATABASE_URL", None)
os.environ.pop("REDIS_URL", None)
# Each hand is dealt as soon as the last ends: no all-in run-out revealed street by street.
os.environ["TABLES_RUNOUT_STREET_SECONDS"] = "0"
os.environ["FELT_HOME"] = HOME = tempfile.mkdtemp(prefix="felt-bench-")

from config.platform.embedded import EmbeddedRedis  # noqa: E402

REDIS = EmbeddedRedis(Path(HOME), persistent=False)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

import engine  # noqa: E402
from accounts.models import User  # noqa: E402
from config.platform import broadcast  # noqa: E402
from tables import services, wakeups  # noqa: E402
from tables.models import Seat, Table  # noqa: E402
from tables.play import hand_state  # noqa: E402
from tables.snapshot import decision_id  # noqa: E402

PLAYERS = 6


def choose(state: engine.HandState, rng: random.Random) -> tuple[str, int | None]:
    """A loose, passive table: mostly checks and calls, a raise now and then."""
    legal = engine.legal_actions(state)
    roll = rng.random()
    if legal.can_raise and roll < 0.12:
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        top = min(legal.max_raise_to, legal.min_raise_to * 3)
        return "raise", rng.randint(legal.min_raise_to, max(legal.min_raise_to, top))
    if legal.can_check:
        return "check", None
    if roll > 0.8:
        return "fold", None
    return "call", None


def new_table(run: int) -> Table:
    users = [
        User.objects.create_user(username=f"bench{run}p{n}", password="bench-only-password")
        for n in range(PLAYERS)
    ]
    table = services.table_create(
        owner=users[0], name=f"Bench {run}", seat_count=PLAYERS, starting_stack=1500
    )
    for number, user in enumerate(users):
        services.seat_take(table_id=table.pk, user=user, seat=number)
    return Table.objects.get(pk=table.pk)


def refill(table: Table) -> None:
    """Everyone back to the starting stack between hands, so nobody busts and the
    same six play every hand (written straight to the rows: not timed)."""
    Seat.objects.filter(table=table).update(stack=table.starting_stack)


class Timed:
    """The processor time of what runs inside it, and its calls in ``profiler`` if any."""

    def __init__(self, profiler: cProfile.Profile | None) -> None:
        self.profiler = profiler
        self.started = self.elapsed = 0.0

    def __enter__(self) -> Timed:
        if self.profiler:
            self.profiler.enable()
        self.started = time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.elapsed = time.process_time() - self.started
        if self.profiler:
            self.profiler.disable()


def play(
    hands: int, seed: int, run: int, profiler: cProfile.Profile | None = None
) -> tuple[list[float], list[float]]:
    rng = random.Random(seed)
    table = new_table(run)
    seats = {seat.number: seat.user for seat in Seat.objects.filter(table=table) if seat.user}
    actions: list[float] = []
    deals: list[float] = []
    outbox: broadcast.Messages = []
    for _ in range(hands):
        refill(table)
        table = Table.objects.get(pk=table.pk)
        with Timed(profiler) as timed, broadcast.collected(outbox):
            services.hand_start(table_id=table.pk, seq=table.seq)
        deals.append(timed.elapsed)
        while True:
            table = Table.objects.get(pk=table.pk)
            state = hand_state(table)
            assert state is not None
            if state.is_over:
                break
            assert state.actor is not None
            action, amount = choose(state, rng)
            decision = decision_id(table, state)
            assert decision is not None
            outbox.clear()
            with Timed(profiler) as timed, broadcast.collected(outbox):
                services.hand_act(
                    table_id=table.pk,
                    user=seats[state.actor],
                    action=action,
                    amount=amount,
                    decision=decision,
                )
            if not hand_state(Table.objects.get(pk=table.pk)).is_over:  # type: ignore[union-attr]
                actions.append(timed.elapsed)
            assert outbox, "a command's commit builds its snapshots"
    return actions, deals


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", help="write the last run's cProfile here")
    options = parser.parse_args(argv)
    REDIS.start()
    try:
        return measure(options)
    finally:
        REDIS.stop()
        shutil.rmtree(HOME, ignore_errors=True)


def measure(options: argparse.Namespace) -> int:
    call_command("migrate", verbosity=0)
    wakeups.set_scheduler(lambda wake: None)
    action_medians, deal_medians = [], []
    for run in range(options.runs):
        profiler = cProfile.Profile() if options.profile and run == options.runs - 1 else None
        actions, deals = play(options.hands, options.seed, run, profiler)
        if profiler:
            profiler.dump_stats(options.profile)
        action_medians.append(statistics.median(actions) * 1e6)
        deal_medians.append(statistics.median(deals) * 1e6)
        print(
            f"run {run + 1}: {len(actions)} actions, median {action_medians[-1]:.0f} µs; "
            f"{len(deals)} deals, median {deal_medians[-1]:.0f} µs",
            flush=True,
        )
    print(
        f"median of runs: action {statistics.median(action_medians):.0f} µs, "
        f"deal {statistics.median(deal_medians):.0f} µs"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

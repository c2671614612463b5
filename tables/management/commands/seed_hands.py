"""Seed the hand history with N finished hands, fast: ``manage.py seed_hands --hands N``.

Each hand is played by the engine from a shuffled deck with a quick random
policy (fold, check/call, bet or raise half pot to pot, now and then all-in),
2 to 6 players from a pool of members at friends', practice and tournament
tables, and stored as the end of a live hand stores it: the ``Hand`` row with
its event log and PHH, and one ``HandPlayer`` per player with the tracker
facts of tables/history/facts.py, built by the same functions
(tables/history/record.py). Rows are written in batches: the hands with
``bulk_create`` (their ids are needed), their players, four or five times as
many rows, with one ``executemany`` (the ORM's per-value SQL building took
most of the time). ``--me NAME`` is dealt into ``--me-share`` of the hands (the
benchmark's player).

``--allin-ev pending`` writes an all-in hand as a live table's end does before
its task runs (tables/history/allin_ev.py): the players' all-in EV is their
actual result and the hand is marked pending, for the sweep to fill in. The
exact equity of a preflop all-in takes about 90 ms, most of a seeding run's
time; the rows the API reads are the same either way. For benchmarks and
demos, never on a real site.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

import engine
from tables.history.record import hand_end, hand_new, insert_players
from tables.history.stats import totals_add
from tables.models import Hand, HandPlayer, Table

BATCH = 500
HANDS_PER_TABLE = 2000


class Command(BaseCommand):
    help = "Seed N realistic finished hands (for benchmarks and demos)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--hands", type=int, default=10_000)
        parser.add_argument("--players", type=int, default=60, help="members in the pool")
        parser.add_argument("--me", default="me", help="a member dealt into --me-share of hands")
        parser.add_argument("--me-share", type=float, default=0.1)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--no-phh", action="store_true", help="skip the stored PHH text")
        parser.add_argument(
            "--allin-ev",
            choices=["exact", "pending"],
            default="exact",
            help="compute all-in EV now, or leave it pending for the sweep (see above)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        rng = random.Random(options["seed"])
        me, pool = _members(options["me"], options["players"])
        started = time.perf_counter()
        clock = datetime(2026, 1, 1, tzinfo=UTC)
        done = 0
        table: Table | None = None
        while done < options["hands"]:
            count = min(BATCH, options["hands"] - done)
            if table is None or done % HANDS_PER_TABLE == 0:
                table = _table(rng, done)
            clock = _write_batch(rng, table, me, pool, count, clock, options)
            done += count
            rate = done / (time.perf_counter() - started)
            self.stdout.write(f"{done} hands ({rate:.0f}/s)", ending="\r")
        self.stdout.write(f"\nseeded {done} hands in {time.perf_counter() - started:.1f} s")


def _members(me_name: str, count: int) -> tuple[Any, list[Any]]:
    users = get_user_model()
    me, _ = users.objects.get_or_create(username=me_name, defaults={"email": f"{me_name}@x.test"})
    names = [f"seed{n:04d}" for n in range(count)]
    existing = set(users.objects.filter(username__in=names).values_list("username", flat=True))
    users.objects.bulk_create(
        [users(username=n, email=f"{n}@x.test") for n in names if n not in existing]
    )
    return me, list(users.objects.filter(username__in=names))


def _table(rng: random.Random, done: int) -> Table:
    kind = rng.choice([Table.Kind.FRIENDS, Table.Kind.PRACTICE, Table.Kind.TOURNAMENT])
    return Table.objects.create(name=f"Seeded {done // HANDS_PER_TABLE + 1}", kind=kind)


def _write_batch(
    rng: random.Random,
    table: Table,
    me: Any,
    pool: list[Any],
    count: int,
    clock: datetime,
    options: dict[str, Any],
) -> datetime:
    hands, players = [], []
    for _ in range(count):
        clock += timedelta(seconds=rng.randint(20, 90))
        seated = rng.sample(pool, rng.randint(1, 5))
        if rng.random() < options["me_share"]:
            seated.append(me)
        else:
            taken = {u.pk for u in seated}
            seated.append(rng.choice([u for u in pool if u.pk not in taken]))
        rng.shuffle(seated)
        state = _play(rng, len(seated))
        hand, rows = _rows(
            table,
            state,
            seated,
            clock,
            with_phh=not options["no_phh"],
            with_allin_ev=options["allin_ev"] == "exact",
        )
        hands.append(hand)
        players.append(rows)
    with transaction.atomic():
        table.save(update_fields=["hand_number"])  # counted up hand by hand in _rows
        Hand.objects.bulk_create(hands)
        for hand, rows in zip(hands, players, strict=True):
            for row in rows:
                row.hand_id = hand.pk
        insert_players([row for rows in players for row in rows])
        totals_add(HandPlayer.objects.filter(hand__in=hands))
    return clock


def _play(rng: random.Random, count: int) -> engine.HandState:
    stacks: list[int | None] = [rng.randint(1000, 6000) for _ in range(count)]
    stacks += [None] * (6 - count)
    button = rng.randrange(count)
    state = engine.new_hand(stacks, button=button, small_blind=10, big_blind=20, rng=rng)
    while not state.is_over:
        state = engine.apply_action(state, _decide(rng, state))
    return state


def _decide(rng: random.Random, state: engine.HandState) -> engine.Action:
    legal = engine.legal_actions(state)
    roll = rng.random()
    if legal.min_raise_to is not None and legal.max_raise_to is not None and roll < 0.18:
        pot = sum(state.contributed) + sum(state.bets)
        target = state.current_bet + int(pot * rng.choice([0.5, 0.75, 1.0]))
        if roll < 0.004:
            target = legal.max_raise_to
        return engine.RaiseTo(max(legal.min_raise_to, min(target, legal.max_raise_to)))
    if legal.can_check:
        return engine.Check()
    fold_chance = 0.35 if state.street == "preflop" else 0.3
    return engine.Fold() if roll < 0.18 + fold_chance else engine.Call()


@dataclass(frozen=True)
class _Member:
    """A seeded seat: a member, named by their username."""

    user: Any
    name: str
    is_bot: bool = False


def _rows(
    table: Table,
    state: engine.HandState,
    seated: list[Any],
    clock: datetime,
    *,
    with_phh: bool,
    with_allin_ev: bool = True,
) -> tuple[Hand, list[HandPlayer]]:
    table.hand_number += 1
    hand = hand_new(table, state, clock)
    players = {seat: _Member(user, user.username) for seat, user in enumerate(seated)}
    rows = hand_end(
        hand,
        state,
        players,
        ended_at=clock + timedelta(seconds=15),
        phh_fields={} if with_phh else None,
        with_allin_ev=with_allin_ev,
    )
    return hand, rows

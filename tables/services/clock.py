"""The action clock: a deadline per decision, then the player's time bank.

Each decision gets ``table.action_seconds``. When that runs out the time bank
takes over (the deadline moves on by the bank, ``is_time_bank`` is set) and
whatever the player does not use stays in the bank. When both run out the
player is checked if free, else folded, and sits out until they send
``sit_in``. The bank starts at 30 s and grows by 5 s every 10 hands the player
is dealt in, up to 60 s. Bots get no clock: their move is due after a short,
human-like pause, shorter at a table played at the fast pace (``Table.pace``),
which also waits less between hands (``between_hands``).

At a tournament's table a player with no socket open there (never opened it, or
their last one closed) gets only a short grace on their turn and no time bank:
then they are marked away like anyone whose clock ran out (docs/rules.md, rule 32).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from random import SystemRandom

from django.conf import settings

from tables import kinds
from tables.models import Seat, Table

TIME_BANK_REFILL = 5.0
TIME_BANK_REFILL_EVERY = 10  # hands dealt in
TIME_BANK_MAX = 60.0
# Below this a bank is treated as empty: not worth a round trip to the client.
TIME_BANK_MIN_USE = 0.5

_rng = SystemRandom()


def start(table: Table, actor: Seat | None, now: datetime) -> None:
    """A new decision: the actor's clock starts now (held, full, while the table is paused)."""
    table.deadline = now + timedelta(seconds=decision_seconds(table, actor))
    table.is_time_bank = False
    table.next_hand_at = None
    if table.is_paused and not (actor is not None and actor.is_bot):
        hold(table, now)
    elif actor is not None and actor.is_bot:
        table.wake_at = now + timedelta(seconds=bot_delay(table))
    else:
        table.wake_at = table.deadline


def is_absent(table: Table, seat: Seat) -> bool:
    """The player has no socket open at the table, at a table whose kind gives such a
    player only a short grace on their turn (rule 32): no time bank is spent for them."""
    return (
        seat.disconnected_at is not None
        and not seat.is_bot
        and kinds.of(table).disconnected_grace() is not None
    )


def decision_seconds(table: Table, actor: Seat | None) -> float:
    """The time for the actor's decision: the table's clock, or the short grace of a
    player absent from a tournament's table (rule 32)."""
    seconds = float(table.action_seconds)
    grace = kinds.of(table).disconnected_grace()
    if actor is None or grace is None or not is_absent(table, actor):
        return seconds
    return min(seconds, grace)


def hold(table: Table, now: datetime) -> None:
    """Pause: the decision's clock stops with what is left on it (nothing is due)."""
    if table.deadline is not None:
        table.clock_left = max(0.0, (table.deadline - now).total_seconds())
    table.deadline = None
    table.wake_at = None


def release(table: Table, now: datetime) -> None:
    """Resume: the held clock runs on from what was left on it."""
    if table.clock_left is None:
        return
    table.deadline = now + timedelta(seconds=table.clock_left)
    table.wake_at = table.deadline
    table.clock_left = None


def starting_time_bank() -> float:
    return settings.TABLES_TIME_BANK_SECONDS


def bot_delay(table: Table) -> float:
    low, high = settings.TABLES_BOT_DELAY_SECONDS
    if table.pace == Table.Pace.FAST:
        fast_low, fast_high = settings.TABLES_FAST_BOT_DELAY_SECONDS
        low, high = min(low, fast_low), min(high, fast_high)
    return _rng.uniform(low, high) if high > low else float(low)


def between_hands(table: Table, *, nobody_there: bool = False) -> tuple[float, float]:
    """How long the next hand waits after the last (seconds): after any hand, and the
    least after a showdown, so its result can be read; at the fast pace at a practice
    table that asks for it, and at a tournament's table where every player is away
    (``nobody_there``: rule 33)."""
    next_hand, showdown = settings.TABLES_NEXT_HAND_SECONDS, settings.TABLES_SHOWDOWN_SECONDS
    if table.pace == Table.Pace.FAST or nobody_there:
        next_hand = min(next_hand, settings.TABLES_FAST_NEXT_HAND_SECONDS)
        showdown = min(showdown, settings.TABLES_FAST_SHOWDOWN_SECONDS)
    return next_hand, showdown


def has_run_out(table: Table, now: datetime) -> bool:
    return table.deadline is not None and table.deadline <= now


def was_missed_in_an_outage(table: Table, now: datetime) -> bool:
    """The deadline passed so long ago that nothing was running to apply it.

    The wake task and the 2-second sweep apply a deadline within moments; one
    found TABLES_OUTAGE_SECONDS late means the server (or its worker) was down,
    and the player, waiting on a dead page, is not to blame.
    """
    late = settings.TABLES_OUTAGE_SECONDS
    return table.deadline is not None and (now - table.deadline).total_seconds() > late


def restart_after_outage(table: Table, now: datetime) -> None:
    """A fresh decision clock; the time bank, unspent, is still there after it."""
    table.deadline = now + timedelta(seconds=table.action_seconds)
    table.is_time_bank = False
    table.wake_at = table.deadline


def use_time_bank(table: Table, seat: Seat) -> bool:
    """Extend the deadline by the seat's bank; False when there is no bank left."""
    if table.is_time_bank or seat.time_bank < TIME_BANK_MIN_USE or table.deadline is None:
        return False
    table.deadline += timedelta(seconds=seat.time_bank)
    table.is_time_bank = True
    table.wake_at = table.deadline
    return True


def spend_time_bank(table: Table, seat: Seat, now: datetime) -> None:
    """The player acted on the bank: keep what is left of it (all of it held, if paused)."""
    if table.deadline is None:
        seat.time_bank = table.clock_left or 0.0
        return
    seat.time_bank = max(0.0, (table.deadline - now).total_seconds())


def count_hand(seat: Seat) -> None:
    """One more hand dealt in: every tenth adds to the bank, up to the cap."""
    seat.hands_since_refill += 1
    if seat.hands_since_refill >= TIME_BANK_REFILL_EVERY:
        seat.hands_since_refill = 0
        seat.time_bank = min(TIME_BANK_MAX, seat.time_bank + TIME_BANK_REFILL)

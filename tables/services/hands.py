"""Playing hands: dealing, players' decisions, timeouts, bots' moves, and the wake-up."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

import engine
from accounts.models import User
from tables import lateness, selectors
from tables.errors import (
    IllegalMove,
    NotSeated,
    NotYourTurn,
    StaleSeq,
    TableError,
    TableNotFound,
)
from tables.failures import note_failure
from tables.models import Seat, Table
from tables.play import hand_state
from tables.services import bots, clock, cut
from tables.services import play as p
from tables.services.runouts import runout_reveal, runout_timeout


def hand_start(*, table_id: int, seq: int) -> int:
    """Deal the next hand (positions by engine.next_positions); returns the new seq."""
    with transaction.atomic():
        play = p.lock(table_id, seq)
        if not cut.is_waiting_for_values(play):  # else moved to the wait's end
            p.deal(play)
        p.commit(play)
        return play.table.seq


def engine_action(action: str, amount: int | None) -> engine.Action:
    """A socket command's action ("raise" with the total raised to) as the engine's."""
    try:
        return engine.parse_action(action if amount is None else f"{action} {amount}")
    except ValueError as error:  # e.g. a negative amount: not an action at all
        raise IllegalMove(str(error)) from None


def hand_act(
    *, table_id: int, user: User, action: str, amount: int | None = None, decision: str
) -> int:
    """The seated ``user`` folds, checks, calls or raises to ``amount`` in answer to
    ``decision`` (the snapshot's); returns the new seq."""
    with transaction.atomic():
        play = p.lock(table_id)
        seat = play.seat_of(user)
        if seat is None:
            raise NotSeated()
        p.check_decision(play, decision)  # also refuses any action between hands
        if play.actor_seat() is not seat:
            raise NotYourTurn()
        p.act(play, engine_action(action, amount))
        p.commit(play)
        return play.table.seq


def hand_timeout(*, table_id: int, seq: int) -> bool:
    """The clock ran out: time bank first, then check/fold and sit out. False if not due."""
    with transaction.atomic():
        play = p.lock(table_id, seq)
        seat = play.actor_seat()
        if seat is None or seat.is_bot:
            return False
        if seat.has_departed:  # nobody will ever answer for a deleted account
            p.advance(play)
            p.commit(play)
            return True
        if not clock.has_run_out(play.table, play.now):
            return False
        if clock.was_missed_in_an_outage(play.table, play.now):
            clock.restart_after_outage(play.table, play.now)
            p.commit(play)
            return True
        # A player not there has no use for a time bank (rule 32): away at once.
        if clock.is_absent(play.table, seat) or not clock.use_time_bank(play.table, seat):
            if play.table.is_time_bank:
                seat.time_bank = 0.0
            seat.is_sitting_out = seat.has_timed_out = True
            assert play.state is not None
            # The next event is the check or fold the clock makes for them.
            play.table.timed_out_events = [*play.table.timed_out_events, len(play.state.events)]
            p.advance(play)
        p.commit(play)
        return True


def bot_act(*, table_id: int, seq: int) -> bool:
    """The bot to act makes its move (from its own view only). False if no bot is to act."""
    with transaction.atomic():
        play = p.lock(table_id, seq)
        seat = play.actor_seat()
        if seat is None or not seat.is_bot or play.state is None:
            return False
        try:
            move = bots.choose_action(engine.view(play.state, seat.number))
            p.act(play, move)
        except Exception as error:  # a strategy bug must not stall the table, nor hide
            note_failure(
                "bot_strategy", table_id=table_id, hand_number=play.table.hand_number, error=error
            )
            p.act(play, p.passive_move(play.state))
        p.commit(play)
        return True


def table_wake(*, table_id: int, seq: int, table: Table | None = None) -> str | None:
    """Apply whatever is due at the table (a timeout, a bot's move, the next hand).

    Does nothing when the table moved on since ``seq`` or nothing is due yet;
    returns what it did. ``table`` is its row when the caller has just read it
    (the wake task, to see whether it moved on), so it is not read twice.
    """
    if table is None:
        try:
            table = selectors.table_get(table_id=table_id)
        except TableNotFound:
            return None
    due = table.wake_at
    if table.seq != seq or due is None or due > timezone.now():
        return None
    done = _apply_due(table, seq)
    if done is not None:
        lateness.note(table_id, (timezone.now() - due).total_seconds())
    return done


def _apply_due(table: Table, seq: int) -> str | None:
    state = hand_state(table)
    try:
        if state is not None and table.runout_revealed is not None:
            return "runout_reveal" if runout_reveal(table_id=table.pk, seq=seq) else None
        if state is None or state.is_over:
            hand_start(table_id=table.pk, seq=seq)
            return "hand_start"
        if state.runout_pending:
            return "runout_timeout" if runout_timeout(table_id=table.pk, seq=seq) else None
        if _is_bot(table, state.actor):
            return "bot_act" if bot_act(table_id=table.pk, seq=seq) else None
        return "hand_timeout" if hand_timeout(table_id=table.pk, seq=seq) else None
    except (StaleSeq, TableNotFound):  # someone else got there first
        return None
    except TableError as error:  # due but impossible: the sweep will try again, not quietly
        note_failure("wake", table_id=table.pk, hand_number=table.hand_number, error=error)
        return None


def _is_bot(table: Table, number: int | None) -> bool:
    """Whether seat ``number`` is a bot's: one column, not the seats with their users."""
    if number is None:
        return False
    return Seat.objects.filter(table=table, number=number, is_bot=True).exists()

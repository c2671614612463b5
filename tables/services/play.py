"""The one write path: lock the table, check seq, change, save, broadcast after commit.

Every public service opens ``transaction.atomic()``, calls ``lock`` (which
takes the table row with ``select_for_update``), changes the ``Play`` through
the helpers below, and ends with ``commit``, which saves the table and its
seats, bumps ``seq`` and registers the broadcast and the wake task to run
once the transaction has committed.
"""

from __future__ import annotations

from datetime import timedelta
from random import SystemRandom
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

import engine
from config.adapters.compiled_query import CompiledQuery
from config.platform import broadcast
from tables import kinds, messages, selectors, wakeups
from tables.errors import (
    HandInProgress,
    IllegalMove,
    NotEnoughPlayers,
    StaleDecision,
    StaleSeq,
    TableClosed,
    TableNotFound,
    TablePaused,
)
from tables.history import record
from tables.models import SeatRequest, Table
from tables.play import (
    Play,
    event_log,
    hand_state,
    is_away,
    remember_hand_state,
    seat_values,
    seats_save,
)
from tables.services import clock, cut, ledger
from tables.snapshot import decision_id
from tables.sql import save_fields

_rng = SystemRandom()
_table_locked = CompiledQuery(
    lambda table_id: Table.objects.select_for_update().filter(pk=table_id)
)


def lock(table_id: int, seq: int | None = None) -> Play:
    """Take the table row lock (call inside ``transaction.atomic``); check ``seq`` if given."""
    first = kinds.lock_first(table_id)  # e.g. its tournament's row: the tournament locks first
    found = _table_locked.rows(table_id)
    if not found:
        raise TableNotFound()
    table = found[0]
    kinds.of(table).hold_first(table, first)
    play = Play(table, selectors.table_seats(table), hand_state(table), timezone.now())
    if seq is not None:
        check_seq(play, seq)
    if not play.is_hand_running and not kinds.of(table).keeps_departed_seats:
        _clear_departed(play)
    return play


def _clear_departed(play: Play) -> None:
    """Between hands, seats whose account was deleted are freed (with their chips,
    as when a player leaves)."""
    for number, seat in list(play.seats.items()):
        if seat.has_departed:
            play.removed.append(play.seats.pop(number))


def check_decision(play: Play, decision: str) -> None:
    """An action answers the decision named in the snapshot it was made from."""
    if decision != decision_id(play.table, play.state):
        raise StaleDecision()


def check_seq(play: Play, seq: int) -> None:
    if seq != play.table.seq:
        raise StaleSeq(
            f"The table moved on (you acted on {seq}, it is now at {play.table.seq}); "
            "look at the table again and retry."
        )


def commit(play: Play) -> None:
    """Save everything, bump ``seq``; broadcast and schedule once committed."""
    table = play.table
    table.seq += 1
    for seat in play.removed:
        ledger.cash_out(table, seat)  # the stack it leaves with (after the hand, if in one)
    # Only the columns that changed, after the cash-outs (they count in ledger_version):
    # every column each action would rewrite the table's settings and names too.
    changed = play.table_changes()
    if play.state is not None and play.hand_changed:
        table.hand_events = event_log(table.hand_events, play.loaded_state, play.state)
        changed.append("hand_events")
    save_fields(table, changed)
    for seat in play.removed:
        seat.delete()
    seats_save(
        [
            (seat.pk, values)
            for seat in play.seats.values()
            if play.loaded.get(seat.pk) != (values := seat_values(seat))
        ]
    )
    removed_by_host = [seat.user_id for seat in play.removed if seat.is_removed and seat.user_id]
    wake = wakeups.Wake(table.pk, table.seq, table.wake_at)

    def after_commit() -> None:
        if play.state is not None:
            remember_hand_state(table, play.state)
        wakeups.request(wake)  # first: it matters more than the broadcast
        # Built from the objects just saved, once the write lock is released:
        # encoding every viewer's snapshot need not hold up other tables' writes.
        broadcast.send(
            messages.snapshot_messages(play.table, play.seats, play.state, play.now)
            + messages.removed_notices(table.pk, removed_by_host)
        )

    transaction.on_commit(after_commit)


# --- players and hands -------------------------------------------------------


def is_nobody_there(play: Play) -> bool:
    """Every player at the table is away and none is a bot (a tournament's table deals
    them on: rule 20): nobody waits to read a hand, so it keeps the fast pace (rule 33)."""
    seats = play.seats.values()
    if not seats or kinds.of(play.table).disconnected_grace() is None:  # not a tournament's
        return False
    return all(is_away(seat) and not seat.is_bot for seat in seats)


def can_deal(play: Play) -> bool:
    """Whether a hand may start now (by the table's kind: tables/kinds.py)."""
    return kinds.of(play.table).can_deal(play)


def wants_next_hand(play: Play) -> bool:
    """Whether the next hand starts by itself (by the table's kind: tables/kinds.py)."""
    return kinds.of(play.table).wants_next_hand(play)


def plan_next_hand(play: Play) -> None:
    """Between hands: due a few seconds from now when a hand can start, else nothing due."""
    if play.is_hand_running:
        return
    table = play.table
    table.deadline = None
    table.clock_left = None
    table.is_time_bank = False
    if wants_next_hand(play) and not table.is_paused:
        if table.next_hand_at is None:
            delay, showdown = clock.between_hands(table, nobody_there=is_nobody_there(play))
            if play.state is not None and was_shown_down(play.state):
                # Who won: a run-out's streets were revealed before this (rule 30).
                delay = max(delay, showdown)
            table.next_hand_at = play.now + timedelta(seconds=delay)
        table.wake_at = table.next_hand_at
        cut.seal_next_deck(play)  # before anyone's value for it can be out
    else:  # nothing due, unless the kind says when play resumes (a break's end)
        table.next_hand_at = table.wake_at = kinds.of(table).resumes_at(play)


def was_shown_down(state: engine.HandState) -> bool:
    """The hand ended with cards shown to decide a pot (not everyone else folding)."""
    return any(isinstance(event, engine.PotAwarded) and event.description for event in state.events)


def streets_run_out(state: engine.HandState) -> int:
    """How many streets were dealt after every live hand was turned up (an all-in
    run-out, rule 14), both boards' for a hand run twice: the snapshots reveal them
    one at a time (rule 30)."""
    shown = False
    streets = 0
    for event in state.events:
        if isinstance(event, engine.CardsShown):
            shown = True
        elif shown and isinstance(event, engine.BoardDealt):
            streets += 1
    return streets


def deal(play: Play) -> None:
    """Start the next hand with positions from the engine (dead button)."""
    if play.is_hand_running:
        raise HandInProgress()
    check_open(play)
    if play.table.is_paused:
        raise TablePaused()
    if not can_deal(play):
        raise NotEnoughPlayers()
    table = play.table
    behaviour = kinds.of(table)
    behaviour.prepare_hand(play)  # the blinds and level of this hand
    occupied = behaviour.dealt_seats(play)  # those sitting out too, or not (rules 20, 29)
    positions = _positions(table, occupied)
    note_missed_big_blinds(play, occupied, positions)
    stacks = [play.seats[n].stack if n in occupied else None for n in range(table.seat_count)]
    options = home_options(play, stacks, positions.big_blind_seat)
    deck, seal, cut_made = cut.deck_for_deal(play)
    play.state = engine.new_hand(
        stacks,
        positions.button,
        small_blind=table.small_blind,
        big_blind=table.big_blind,
        ante=table.ante,
        small_blind_seat=(
            engine.NO_SMALL_BLIND
            if positions.small_blind_seat is None
            else positions.small_blind_seat
        ),
        big_blind_seat=positions.big_blind_seat,
        game=table.game,
        deck=deck,
        **options,
    )
    if options.get("bomb_pot"):
        table.bomb_pot_next = False  # the host's call is answered
    table.hand_number += 1
    table.button = positions.button
    table.small_blind_seat = positions.small_blind_seat
    table.big_blind_seat = positions.big_blind_seat
    table.next_hand_at = None
    table.runout_revealed = None
    table.hand_names = [
        play.seats[n].name if n in occupied else None for n in range(table.seat_count)
    ]
    table.timed_out_events = []
    for number in occupied:
        clock.count_hand(play.seats[number])
    record.hand_begin(table, play.state, play.now, seal, cut_made)
    advance(play)


def note_missed_big_blinds(play: Play, dealt: list[int], positions: engine.Positions) -> None:
    """Rule 29: a seat sitting out that the big blind goes past has missed it (and waits
    for it once back); a seat dealt in has missed nothing."""
    table = play.table
    passed: tuple[int, ...] = ()
    if table.button is not None and table.big_blind_seat is not None:
        last = engine.Positions(table.button, table.small_blind_seat, table.big_blind_seat)
        passed = engine.seats_passed(last, positions, table.seat_count)
    for number, seat in play.seats.items():
        if number in dealt:
            seat.has_missed_big_blind = False
        elif number in passed and seat.is_sitting_out:
            seat.has_missed_big_blind = True


def home_options(play: Play, stacks: list[int | None], big_blind_seat: int) -> dict[str, Any]:
    """The next hand's home-game options, from the table's settings (rules 23-25):
    a bomb pot when the host called one or its turn came, else a straddle when the
    player under the gun wants one and can post it; run it twice when offered."""
    table = play.table
    options: dict[str, Any] = {"run_it_twice": table.offers_run_it_twice}
    every = table.bomb_pot_every
    if table.bomb_pot_ante and (
        table.bomb_pot_next or (every and (table.hand_number + 1) % every == 0)
    ):
        options["bomb_pot"] = table.bomb_pot_ante
    elif table.allows_straddle and sum(1 for chips in stacks if chips) >= 3:
        seat = play.seats[engine.under_the_gun(stacks, big_blind_seat)]
        covers = seat.stack >= table.ante + 2 * table.big_blind
        options["straddle"] = seat.wants_straddle and covers and not is_away(seat)
    return options


def _positions(table: Table, occupied: list[int]) -> engine.Positions:
    if table.big_blind_seat is None or table.button is None:
        return engine.first_positions(_rng.choice(occupied), occupied, table.seat_count)
    previous = engine.Positions(table.button, table.small_blind_seat, table.big_blind_seat)
    return engine.next_positions(previous, occupied, table.seat_count)


def act(play: Play, action: engine.Action) -> None:
    """Apply the actor's decision, then move the hand on."""
    assert play.state is not None
    seat = play.actor_seat()
    try:
        play.state = engine.apply_action(play.state, action)
    except engine.IllegalAction as error:
        raise IllegalMove(str(error)) from None
    if seat is not None and play.table.is_time_bank:
        clock.spend_time_bank(play.table, seat, play.now)
    advance(play)


def advance(play: Play) -> None:
    """After a decision or a deal: play for the away players, then clock, ask the
    players all-in whether to run it twice (rule 25), or finish."""
    fold_or_check_away_players(play)
    assert play.state is not None
    if play.state.is_over:
        finish_hand(play)
    elif play.state.runout_pending:
        ask_runouts(play)
    else:
        clock.start(play.table, play.actor_seat(), play.now)


def runout_askees(state: engine.HandState) -> list[int]:
    """The seats asked whether to run it twice: every player still in the pot."""
    return [seat for seat in state.players if state.is_live(seat)]


def ask_runouts(play: Play) -> None:
    """Open the run-it-twice question (tables/services/runouts.py): those who cannot
    answer are answered for at once (away players no, bots yes)."""
    state, table = play.state, play.table
    assert state is not None
    answers: dict[str, bool] = {}
    for number in runout_askees(state):
        seat = play.seats.get(number)
        if seat is None or seat.is_bot or is_away(seat):
            answers[str(number)] = seat is not None and seat.is_bot
    table.runout_answers = answers
    table.deadline = play.now + timedelta(seconds=settings.TABLES_RUNOUT_QUESTION_SECONDS)
    table.wake_at = table.deadline
    table.is_time_bank = False
    settle_runouts_if_answered(play)


def settle_runouts_if_answered(play: Play) -> None:
    """One "no" runs the board once; a "yes" from everyone asked runs it twice."""
    assert play.state is not None
    answers = play.table.runout_answers
    if not all(answers.values()):
        settle_runouts(play, 1)
    elif len(answers) == len(runout_askees(play.state)):
        settle_runouts(play, 2)


def settle_runouts(play: Play, count: int) -> None:
    assert play.state is not None
    play.state = engine.choose_runouts(play.state, count)
    play.table.runout_answers = {}
    play.table.deadline = play.table.wake_at = None
    advance(play)


def fold_or_check_away_players(play: Play) -> None:
    """A player away in a hand they were dealt into is checked when free, else folded, at
    once (rule 20; at a cash table only the hand in play, rule 29: after it they are not
    dealt in)."""
    while play.is_hand_running:
        seat = play.actor_seat()
        if seat is None or not is_away(seat):
            return
        assert play.state is not None
        play.state = engine.apply_action(play.state, passive_move(play.state))


def passive_move(state: engine.HandState) -> engine.Action:
    """What an absent player does (rule 20), and a bot whose strategy failed: check when
    checking is free, else fold."""
    return engine.Check() if engine.legal_actions(state).can_check else engine.Fold()


def finish_hand(play: Play) -> None:
    """The engine's hand is over: reveal its all-in run-out street by street first
    (rule 30), else end it now. A street time of 0 turns the reveal off, and nobody
    at the table to see it does too (rule 33)."""
    state = play.state
    assert state is not None and state.is_over
    reveals = settings.TABLES_RUNOUT_STREET_SECONDS > 0 and not is_nobody_there(play)
    if reveals and streets_run_out(state):
        reveal_begin(play)
    else:
        end_hand(play)


def reveal_begin(play: Play) -> None:
    """The run-out is dealt but none of it is on the felt: the hand stays in play
    (``Play.is_hand_running``) while ``runout_reveal_step`` shows it."""
    table = play.table
    table.runout_revealed = 0
    table.deadline = None
    table.wake_at = play.now + timedelta(seconds=settings.TABLES_RUNOUT_STREET_SECONDS)


def runout_reveal_step(play: Play) -> None:
    """Put the run-out's next street on the felt, one street's time apart (board 1's
    streets, then board 2's); after the last one, the result: the hand ends."""
    table, state = play.table, play.state
    assert state is not None and table.runout_revealed is not None
    if table.runout_revealed < streets_run_out(state):
        table.runout_revealed += 1
        table.wake_at = play.now + timedelta(seconds=settings.TABLES_RUNOUT_STREET_SECONDS)
    else:
        table.runout_revealed = None
        end_hand(play)


def end_hand(play: Play) -> None:
    """Write history, pay the stacks back to the seats, free seats of those who left."""
    state = play.state
    assert state is not None and state.is_over
    record.hand_finish(play.table, play.seats, state, play.now)
    for number in state.players:
        play.seats[number].stack = state.stacks[number]
    kinds.of(play.table).after_hand(play)  # e.g. a tournament's eliminations
    keeps_departed = kinds.of(play.table).keeps_departed_seats
    for number, seat in list(play.seats.items()):
        if seat.is_leaving or (seat.has_departed and not keeps_departed):
            play.removed.append(play.seats.pop(number))
    if play.table.closes_after_hand:
        close(play)
    plan_next_hand(play)


def close(play: Play) -> None:
    """End the game between hands: every player leaves with their stack (a cash-out
    each, written by ``commit``), asks to sit are dropped, and nothing is due again."""
    assert not play.is_hand_running
    table = play.table
    for number in sorted(play.seats):
        play.removed.append(play.seats.pop(number))
    SeatRequest.objects.filter(table=table).delete()
    table.closes_after_hand = False
    table.closed_at = play.now
    table.is_paused = False
    table.next_hand_at = table.wake_at = table.deadline = None


def check_open(play: Play) -> None:
    """Refuse ``TableClosed`` once the host ended the game (or is ending it)."""
    if play.table.closed_at is not None:
        raise TableClosed()
    if play.table.closes_after_hand:
        raise TableClosed("The host is ending this game after this hand.")

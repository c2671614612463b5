"""Sitting down, standing up, sitting out and coming back."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from accounts.models import User
from tables import kinds
from tables.errors import (
    AlreadySeated,
    BadSeat,
    Barred,
    CannotLeave,
    CannotRebuy,
    NotBusted,
    NotLeaving,
    NotSeated,
    SeatTaken,
)
from tables.models import ChipMovement, Seat, SeatRequest
from tables.play import Play, is_away
from tables.services import ledger
from tables.services import play as p
from tables.services.clock import starting_time_bank
from tables.snapshot import was_dealt_in


def seat_take(*, table_id: int, user: User, seat: int) -> int:
    """Sit ``user`` in empty seat ``seat``; returns the seq. The stack is the table's
    starting stack, or what they cashed out here last (``ledger.sit_down_stack``).
    Where the host approves sit-downs, anyone but the host asks instead (a
    ``SeatRequest`` the host answers with ``seat_request_decide``); so does a player
    coming back for a fresh stack where the host approves rebuys (it is one)."""
    with transaction.atomic():
        play = p.lock(table_id)
        table = play.table
        kinds.check_sit(table, user)
        check_free_seat(play, user, seat)
        brought = ledger.sit_down_stack(table, user)
        is_rebuy = brought[1] == ChipMovement.Kind.REBUY
        asks = table.is_seating_approved_by_host or (is_rebuy and table.is_rebuy_approved_by_host)
        if asks and table.host_id != user.pk:
            SeatRequest.objects.update_or_create(
                table=table, user=user, defaults={"number": seat, "is_rebuy": is_rebuy}
            )
        else:
            sit(play, user, seat, brought)
        p.commit(play)
        return table.seq


def check_free_seat(play: Play, user: User, seat: int) -> None:
    table = play.table
    p.check_open(play)
    if type(seat) is not int or not 0 <= seat < table.seat_count:
        raise BadSeat(f"Seats are numbered 0 to {table.seat_count - 1}.")
    if play.seat_of(user) is not None:
        raise AlreadySeated()
    if user.pk in table.barred_user_ids:
        raise Barred()
    if seat in play.seats:
        raise SeatTaken()


def sit(play: Play, user: User, seat: int, brought: tuple[int, str] | None = None) -> None:
    """``user`` takes free seat ``seat`` with their buy-in (checked by ``check_free_seat``):
    ``brought``, the stack and its ledger row, where the caller has just read them."""
    table = play.table
    stack, kind = brought or ledger.sit_down_stack(table, user)
    taken = play.seats[seat] = Seat.objects.create(
        table=table,
        number=seat,
        user=user,
        stack=stack,
        time_bank=starting_time_bank(),
        joined_at_hand=table.hand_number,
    )
    ledger.record(table, taken, kind, taken.stack)
    SeatRequest.objects.filter(table=table, user=user).delete()
    p.plan_next_hand(play)


def own_seat(play: Play, user: User) -> Seat:
    seat = play.seat_of(user)
    if seat is None:
        raise NotSeated()
    return seat


def at_own_seat(table_id: int, user: User, change: Callable[[Play, Seat], object]) -> int:
    """``change`` made by ``user``'s seat at the locked table (a kind's hook: a
    tournament's add-on, a rebuy declined, a deal), committed; the new seq."""
    with transaction.atomic():
        play = p.lock(table_id)
        change(play, own_seat(play, user))
        p.commit(play)
        return play.table.seq


def is_in_hand(play: Play, seat: Seat) -> bool:
    return play.is_hand_running and was_dealt_in(play.table, seat, play.state)


def seat_leave(*, table_id: int, user: User) -> int:
    """Stand up; in a hand, folded when the turn comes and gone when the hand ends."""
    with transaction.atomic():
        play = p.lock(table_id)
        if play.seat_of(user) is None and _cancel_seat_request(play, user):
            p.commit(play)
            return play.table.seq
        seat = own_seat(play, user)
        kinds.of(play.table).check_leave(play, seat)  # e.g. not out of a running tournament
        if is_in_hand(play, seat):
            seat.is_leaving = True
            step_aside(play)
        else:
            play.removed.append(play.seats.pop(seat.number))
            p.plan_next_hand(play)
        p.commit(play)
        return play.table.seq


def _cancel_seat_request(play: Play, user: User) -> bool:
    """A member who asked for a seat takes the request back; False if there was none."""
    deleted, _ = SeatRequest.objects.filter(table=play.table, user=user).delete()
    return deleted > 0


def seat_stay(*, table_id: int, user: User) -> int:
    """Take back a ``seat_leave`` made during the hand: the seat is kept after it
    (a decision already folded for them stays folded)."""
    with transaction.atomic():
        play = p.lock(table_id)
        seat = own_seat(play, user)
        if not seat.is_leaving:
            raise NotLeaving()
        if seat.is_removed:
            raise NotLeaving("The host removed you from this table: you leave after this hand.")
        seat.is_leaving = False
        p.commit(play)
        return play.table.seq


def seat_rebuy(*, table_id: int, user: User) -> int:
    """A busted player buys the table's starting stack again (a ledger row with it);
    where the host approves rebuys, anyone but the host asks instead (``wants_rebuy``).
    At a tournament's table, the tournament's rebuy (``TableBehaviour.buy_chips``)."""
    with transaction.atomic():
        play = p.lock(table_id)
        seat = own_seat(play, user)
        behaviour = kinds.of(play.table)
        if behaviour.sells_chips:
            behaviour.buy_chips(play, seat, "rebuy")
            p.plan_next_hand(play)
            p.commit(play)
            return play.table.seq
        if not behaviour.allows_rebuys:
            raise CannotRebuy()
        if is_in_hand(play, seat):
            raise CannotRebuy("You are in this hand: rebuy once it is over, if you bust.")
        if seat.stack > 0:
            raise NotBusted()
        if play.table.is_rebuy_approved_by_host and play.table.host_id != user.pk:
            seat.wants_rebuy = True
        else:
            rebuy(play, seat)
        p.commit(play)
        return play.table.seq


def seat_add_on(*, table_id: int, user: User) -> int:
    """A tournament's add-on: its chips before the player's next hand."""
    return at_own_seat(
        table_id, user, lambda play, seat: kinds.of(play.table).buy_chips(play, seat, "add_on")
    )


def seat_decline_rebuy(*, table_id: int, user: User) -> int:
    """Out of chips in a tournament's rebuy period, the player says no: out now."""
    return at_own_seat(
        table_id, user, lambda play, seat: kinds.of(play.table).decline_rebuy(play, seat)
    )


def seat_auto_rebuy(*, table_id: int, user: User, is_on: bool) -> int:
    """At a practice table, whether its player gets a fresh stack by themselves after
    a hand that busts them; turned on while busted between hands, it rebuys now."""
    with transaction.atomic():
        play = p.lock(table_id)
        seat = own_seat(play, user)
        if not kinds.of(play.table).offers_auto_rebuy:
            raise CannotRebuy("Automatic rebuys are only at practice tables.")
        play.table.auto_rebuy = is_on
        if is_on and seat.stack == 0 and not is_in_hand(play, seat):
            rebuy(play, seat)
        p.commit(play)
        return play.table.seq


def rebuy(play: Play, seat: Seat) -> None:
    """``seat`` (busted, between its hands) gets the starting stack, with its ledger row."""
    seat.stack = play.table.starting_stack
    seat.wants_rebuy = False
    ledger.record(play.table, seat, ChipMovement.Kind.REBUY, seat.stack)
    p.plan_next_hand(play)


def seats_release(*, user: User) -> int:
    """Before ``user``'s account is deleted or deactivated: leave every table (folded
    when their turn comes, gone after the hand, as with ``seat_leave``; in a running
    tournament, sat out and played as away until out of chips). Returns how
    many seats; each table is locked on its own, so one table never waits for another."""
    table_ids = list(Seat.objects.filter(user=user).values_list("table_id", flat=True))
    for table_id in table_ids:
        try:
            seat_leave(table_id=table_id, user=user)
        except NotSeated:  # gone from that table since the list was read
            continue
        except CannotLeave:  # a running tournament: played as away until out of chips
            seat_sit_out(table_id=table_id, user=user)
    return len(table_ids)


def seat_sit_out(*, table_id: int, user: User) -> int:
    """Stay seated but skip decisions: folded or checked in the hand in play; then not
    dealt in at a cash table (rule 29), dealt in and blinded off in a tournament (rule 20)."""
    with transaction.atomic():
        play = p.lock(table_id)
        seat = own_seat(play, user)
        seat.is_sitting_out = True
        if play.is_hand_running:
            step_aside(play)
        else:
            p.plan_next_hand(play)
        p.commit(play)
        return play.table.seq


def seat_sit_in(*, table_id: int, user: User) -> int:
    """Back to playing from the next decision on; at a cash table, after missing the
    big blind, dealt in again once the big blind is theirs (rule 29)."""
    with transaction.atomic():
        play = p.lock(table_id)
        seat = own_seat(play, user)
        seat.is_sitting_out = False
        seat.has_timed_out = False
        p.plan_next_hand(play)
        p.commit(play)
        return play.table.seq


def step_aside(play: Play) -> None:
    """If the player who just stepped aside is to act, act for them now."""
    actor = play.actor_seat()
    if actor is not None and is_away(actor):
        p.advance(play)

"""What the host of a friends' table does: pause, blinds, removals (and letting a
removed player back), approvals, mutes.

Each is one locked transaction through ``tables.services.play`` like every
other change of a table (``seq`` bumped, snapshots after commit). Only the
table's host may; anyone else gets ``not_host`` and nothing changes.
"""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from tables import kinds
from tables.errors import (
    AlreadyPaused,
    BadBlinds,
    BadSeat,
    NoRequest,
    NotBusted,
    NotHost,
    NotPaused,
    SeatTaken,
)
from tables.models import MIN_STARTING_BIG_BLINDS, Seat, SeatRequest, Table
from tables.play import Play
from tables.services import clock, seats
from tables.services import play as p


def lock_as_host(table_id: int, user: User) -> Play:
    """The locked table, when ``user`` is its host (inside ``transaction.atomic``)."""
    play = p.lock(table_id)
    if not kinds.of(play.table).has_host or play.table.host_id != user.pk:
        raise NotHost()
    p.check_open(play)
    return play


def _other_player(play: Play, user: User, number: int) -> Seat:
    """The seated person in seat ``number``, not the host themself."""
    seat = play.seats.get(number)
    if seat is None or seat.is_bot or seat.user_id is None:
        raise BadSeat(f"Nobody sits in seat {number + 1}.")
    if seat.user_id == user.pk:
        raise BadSeat("That is your own seat.")
    return seat


def table_pause(*, table_id: int, user: User) -> int:
    """No hand is dealt until ``table_resume``; a decision's clock is held meanwhile
    (the hand in play goes on at the players' pace)."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        table = play.table
        if table.is_paused:
            raise AlreadyPaused()
        table.is_paused = True
        actor = play.actor_seat()
        if play.is_hand_running and actor is not None and not actor.is_bot:
            clock.hold(table, play.now)
        p.plan_next_hand(play)
        p.commit(play)
        return table.seq


def table_close(*, table_id: int, user: User) -> int:
    """End the game: everyone is cashed out with their stack and the table deals no
    more. With a hand in play, that happens when it ends (it is played out)."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        if play.is_hand_running:
            play.table.closes_after_hand = True
        else:
            p.close(play)
        p.commit(play)
        return play.table.seq


def table_resume(*, table_id: int, user: User) -> int:
    """The held clock runs on; between hands the next hand is dealt as usual."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        table = play.table
        if not table.is_paused:
            raise NotPaused()
        table.is_paused = False
        if play.is_hand_running:
            clock.release(table, play.now)
        p.plan_next_hand(play)
        p.commit(play)
        return table.seq


def check_blinds(small_blind: int, big_blind: int, ante: int, starting_stack: int) -> None:
    if small_blind < 1:
        raise BadBlinds("The small blind must be at least 1.")
    if big_blind < small_blind:
        raise BadBlinds("The big blind cannot be smaller than the small blind.")
    if not 0 <= ante <= big_blind:
        raise BadBlinds("The ante is from 0 to the big blind.")
    if big_blind * MIN_STARTING_BIG_BLINDS > starting_stack:
        raise BadBlinds(
            f"A rebuy ({starting_stack} chips) must cover at least "
            f"{MIN_STARTING_BIG_BLINDS} big blinds."
        )


def table_set_blinds(
    *, table_id: int, user: User, small_blind: int, big_blind: int, ante: int
) -> int:
    """The blinds and ante from the next hand on (the hand in play keeps its own)."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        table = play.table
        check_blinds(small_blind, big_blind, ante, table.starting_stack)
        table.next_small_blind, table.next_big_blind = small_blind, big_blind
        table.next_ante = ante
        p.commit(play)
        return table.seq


def seat_remove(*, table_id: int, user: User, seat: int) -> int:
    """The player in ``seat`` leaves with their stack (a cash-out in the ledger); one
    dealt into the hand in play is folded on their turn and leaves after it. They may
    not sit here again until the host lets them back (``player_allow_back``)."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        removed = _other_player(play, user, seat)
        removed.wants_rebuy = False
        removed.is_removed = True  # the player is told so once the seat is freed
        barred = play.table.barred_user_ids
        play.table.barred_user_ids = (
            [*barred, removed.user_id] if removed.user_id not in barred else barred
        )
        if seats.is_in_hand(play, removed):
            removed.is_leaving = True
            seats.step_aside(play)
        else:
            play.removed.append(play.seats.pop(removed.number))
            p.plan_next_hand(play)
        p.commit(play)
        return play.table.seq


def host_hand_over(*, table_id: int, user: User, seat: int) -> int:
    """The player in ``seat`` becomes the host; ``user`` is a player like the others."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        play.table.host_id = _other_player(play, user, seat).user_id
        p.commit(play)
        return play.table.seq


def table_set_approvals(
    *, table_id: int, user: User, rebuys: bool | None = None, seating: bool | None = None
) -> int:
    """Whether the host approves each rebuy and each sit-down (None: unchanged).
    Switching approval off lets what was asked be asked again, now to no one."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        table = play.table
        if rebuys is not None:
            table.is_rebuy_approved_by_host = rebuys
            if not rebuys:
                for waiting in play.seats.values():
                    waiting.wants_rebuy = False
        if seating is not None:
            table.is_seating_approved_by_host = seating
        _drop_unasked(table)
        p.commit(play)
        return table.seq


def _drop_unasked(table: Table) -> None:
    """The sit-down requests nobody need answer any more: all of them once the host
    stops approving sit-downs, but a comeback's rebuy while rebuys still wait."""
    if table.is_seating_approved_by_host:
        return
    waiting = SeatRequest.objects.filter(table=table)
    if table.is_rebuy_approved_by_host:
        waiting = waiting.filter(is_rebuy=False)
    waiting.delete()


def player_allow_back(*, table_id: int, user: User, player: int) -> int:
    """The member ``player`` (a user id from the snapshot's ``barred``), whom the host
    removed, may sit at this table again."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        barred = play.table.barred_user_ids
        if player not in barred:
            raise NoRequest("That player was not removed from this table.")
        play.table.barred_user_ids = [pk for pk in barred if pk != player]
        p.commit(play)
        return play.table.seq


def rebuy_decide(*, table_id: int, user: User, seat: int, approve: bool) -> int:
    """Answer the rebuy asked for in ``seat``: the chips and their ledger row, or no."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        asking = play.seats.get(seat)
        if asking is None or not asking.wants_rebuy:
            raise NoRequest(f"Nobody in seat {seat + 1} is asking for a rebuy.")
        if approve and asking.stack > 0:
            raise NotBusted("That player has chips again: no rebuy needed.")
        if approve:
            seats.rebuy(play, asking)
        asking.wants_rebuy = False
        p.commit(play)
        return play.table.seq


def seat_request_decide(*, table_id: int, user: User, request: int, approve: bool) -> int:
    """Answer a request to sit: seated in the seat asked for (if still free), or not."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        asked = SeatRequest.objects.filter(table=play.table, pk=request).select_related("user")
        found = asked.order_by("pk").first()  # one row: the default ordering joins the table
        if found is None:
            raise NoRequest()
        if approve:
            if found.number in play.seats:
                raise SeatTaken("Someone sat there since: they can ask for another seat.")
            seats.check_free_seat(play, found.user, found.number)
            seats.sit(play, found.user, found.number)
        found.delete()
        p.commit(play)
        return play.table.seq


def chat_mute(*, table_id: int, user: User, seat: int, muted: bool) -> int:
    """Mute (or unmute) the player in ``seat`` in this table's chat."""
    with transaction.atomic():
        play = lock_as_host(table_id, user)
        target = _other_player(play, user, seat).user_id
        ids = [pk for pk in play.table.muted_user_ids if pk != target]
        play.table.muted_user_ids = [*ids, target] if muted else ids
        p.commit(play)
        return play.table.seq


def hosts_release(*, user: User) -> int:
    """Before ``user``'s account is deleted or deactivated: each friends' table they
    host passes to the person (not a bot) in the lowest-numbered seat, so the game
    keeps a host; a table with nobody else seated is left without one. Each
    table is locked on its own. Returns how many tables changed hands."""
    table_ids = list(Table.objects.filter(host=user).order_by("pk").values_list("pk", flat=True))
    passed = 0
    for table_id in table_ids:
        with transaction.atomic():
            play = p.lock(table_id)
            if play.table.host_id != user.pk:
                continue  # handed on meanwhile
            people = [s for n, s in sorted(play.seats.items()) if s.user_id not in (None, user.pk)]
            play.table.host_id = people[0].user_id if people else None
            p.commit(play)
            passed += people != []
    return passed

"""Late registration of a multi-table tournament: the new entrant seated at once.

Called by ``tournaments.services.registration`` with the tournament locked; the
tables are locked after it in id order.
"""

from __future__ import annotations

from random import SystemRandom

from django.db.models import Q
from django.urls import reverse

from engine.seating import TableSeating, arrival_seats, worst_seat
from tables.models import Seat
from tables.play import Play, seat_values
from tables.services import play as p
from tables.services.clock import starting_time_bank
from tournaments import broadcast
from tournaments.models import Entry, Tournament
from tournaments.services.start import table_open

_rng = SystemRandom()


def table_seating(play: Play) -> TableSeating:
    """The engine's view of a locked table: players with chips, the last big blind."""
    return TableSeating(
        play.table.pk,
        play.table.seat_count,
        {n: s.entry_id for n, s in play.seats.items() if s.stack + s.chips_to_add > 0},
        play.table.big_blind_seat,
        not play.is_hand_running,
    )


def seat_late_entry(tournament: Tournament, entry: Entry) -> None:
    """A late registration (tournament locked): the entry takes the worst free seat of
    the smallest table with one, with the starting stack, dealt in from its next hand."""
    plays = [p.lock(table_id) for table_id in _live_tables(tournament)]
    for each in plays:  # a re-entry: the seat its player went out from, if still shown
        gone = [
            n
            for n, seat in each.seats.items()
            if entry.user_id is not None and seat.user_id == entry.user_id and seat.stack == 0
        ]
        for number in gone:
            each.removed.append(each.seats.pop(number))
            Seat.objects.filter(table=each.table, number=number).delete()  # now: seat it anew
    open_plays = [each for each in plays if arrival_seats(table_seating(each))]
    target = min(
        open_plays,
        key=lambda each: (len(table_seating(each).players), each.table.pk),
        default=None,
    )
    for each in plays:
        if each.removed and each is not target:
            p.plan_next_hand(each)
            p.commit(each)
    if target is None:
        _seat_at_a_new_table(tournament, entry)
        return
    number = worst_seat(table_seating(target), _rng)
    busted = target.seats.pop(number, None)
    if busted is not None:  # out of it, shown until the next deal: replaced
        Seat.objects.filter(pk=busted.pk).delete()
    seat = Seat.objects.create(
        table=target.table,
        number=number,
        user=entry.user,
        entry=entry,
        stack=tournament.blind_structure.starting_stack,
        time_bank=starting_time_bank(),
        joined_at_hand=target.table.hand_number,
        disconnected_at=target.now,  # until their page opens the table (rule 32)
    )
    target.seats[number] = seat
    target.loaded[seat.pk] = seat_values(seat)
    p.plan_next_hand(target)
    p.commit(target)
    if entry.user_id is not None:
        url = reverse("tables:table_detail", args=[target.table.pk])
        text = f"You are in: your seat is at {target.table.name}"
        notice = {"kind": "tournament_started", "text": text, "url": url}
        broadcast.user_notices([(entry.user_id, notice)])


def _seat_at_a_new_table(tournament: Tournament, entry: Entry) -> None:
    """Every table full: the entrant opens a new one (the highest id, so locked last).
    Alone there, they are dealt in once balancing or a broken table brings players
    (tables between hands give them up, docs/tournaments.md)."""
    number = tournament.tables.count() + 1
    seat = _rng.randrange(tournament.seats)
    table = table_open(tournament, f"{tournament.title} · Table {number}", {seat: entry})
    if entry.user_id is not None:
        url = reverse("tables:table_detail", args=[table.pk])
        text = f"You are in: your seat is at {table.name}; play starts when players join you"
        notice = {"kind": "tournament_started", "text": text, "url": url}
        broadcast.user_notices([(entry.user_id, notice)])


def _live_tables(tournament: Tournament) -> list[int]:
    """Tables with a player still in it, in id order (the lock order)."""
    with_chips = Q(seats__stack__gt=0) | Q(seats__chips_to_add__gt=0)  # bought: still in
    tables = tournament.tables.filter(with_chips).distinct().order_by("pk")
    return list(tables.values_list("pk", flat=True))

"""A scheduled multi-table tournament: its start, and its seating between hands.

The start (its task at ``starts_at``, or the sweep) draws everyone over the
fewest tables (``engine.seating.draw``) in one transaction; with fewer than
two entrants the tournament is cancelled and refunded. After every hand at
any of its tables, ``seating_after_hand`` applies ``engine.seating.plan``:
tables broken, players moved to balance, or the final table drawn once the
players left fit at one. It reads the other tables first, and locks them (the
tournament row is already locked, then tables in id order) only when the plan
has something to do.
"""

from __future__ import annotations

from collections.abc import Hashable
from datetime import datetime
from random import SystemRandom
from typing import cast

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

import engine
from engine.seating import SeatingPlan, TableSeating
from tables.models import Seat, Table
from tables.play import Play, hand_state, seat_values
from tables.services import play as p
from tournaments import broadcast
from tournaments.models import Entry, Tournament
from tournaments.services.cancel import tournament_cancel
from tournaments.services.late import table_seating
from tournaments.services.registration import locked
from tournaments.services.start import (
    deal_first_hand,
    plan_first_hand,
    schedule_level_task,
    table_open,
)

_rng = SystemRandom()
MOVED = "You moved to {name}"


def mtts_due(*, now: datetime) -> list[int]:
    """Scheduled tournaments whose start has come (a lost start task included)."""
    due = Tournament.objects.filter(
        kind=Tournament.Kind.MTT, status=Tournament.Status.REGISTERING, starts_at__lte=now
    )
    return list(due.order_by("starts_at", "pk").values_list("pk", flat=True))


def mtt_start(*, tournament_id: int, now: datetime | None = None) -> Tournament | None:
    """Start the tournament if its time has come; None if there was nothing to do."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked(tournament_id)
        if (
            tournament.kind != Tournament.Kind.MTT
            or tournament.status != Tournament.Status.REGISTERING
            or tournament.starts_at is None
            or tournament.starts_at > now
        ):
            return None
        entries = {e.pk: e for e in tournament.entries.select_related("user").order_by("pk")}
        if len(entries) < 2:  # nobody to play: every buy-in back
            return tournament_cancel(tournament_id=tournament.pk)
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = now
        tournament.save(update_fields=["status", "started_at"])
        notices = []
        drawn = engine.draw(list(entries), tournament.seats, _rng)
        for number, seating in enumerate(drawn, start=1):
            seats = {seat: entries[entry_id] for seat, entry_id in seating.items()}  # type: ignore[index]
            table = table_open(tournament, f"{tournament.title} · Table {number}", seats)
            if len(seats) >= 2:  # a lone player (two-seat tables) waits to be moved or joined
                deal_first_hand(table)
            url = reverse("tables:table_detail", args=[table.pk])
            text = f"{tournament.title} has started: you are at Table {number}"
            notice = {"kind": "tournament_started", "text": text, "url": url}
            notices += [(e.user_id, notice) for e in seats.values() if e.user_id is not None]
        broadcast.user_notices(notices)
        schedule_level_task(tournament, 0)
        broadcast.lobby_update(tournament.pk)
        return tournament


def seating_after_hand(play: Play, tournament: Tournament) -> None:
    """Between hands at ``play``'s table (tournament and table locked): break, balance
    or draw the final table. Other tables are locked in id order and committed if changed;
    when nothing is to be done (most hands), they are only read."""
    seated = tournament.tables.exclude(pk=play.table.pk).filter(seats__isnull=False)
    other_ids = list(seated.distinct().order_by("pk").values_list("pk", flat=True))
    if _is_settled(play, tournament, other_ids):
        return
    others = {table_id: p.lock(table_id) for table_id in other_ids}
    for other in others.values():  # one tournament object: the flag below is seen by all
        other.table.tournament = tournament
    plays = {play.table.pk: play, **others}
    seatings = [table_seating(each) for each in plays.values() if each.seats or each is play]
    result = engine.plan(seatings, tournament.seats, _rng)
    was_waiting = tournament.is_waiting_for_tables
    is_busy = any(o.is_hand_running for o in others.values())
    flags = _wait_or_go(tournament, seatings, result, is_busy)
    if (tournament.is_waiting_for_tables, tournament.is_hand_for_hand) != flags:
        tournament.is_waiting_for_tables, tournament.is_hand_for_hand = flags
        # saved before any deal below: the new or released tables read it
        tournament.save(update_fields=["is_waiting_for_tables", "is_hand_for_hand"])
    if result.final_table is not None:
        _final_table(tournament, plays, result.final_table)
    else:
        _move(plays, result, play)
    changed = {m.from_table for m in result.moves} | {m.to_table for m in result.moves}
    for table_id, other in others.items():
        released = was_waiting and not tournament.is_waiting_for_tables
        if released or table_id in changed or table_id in result.broken or result.final_table:
            p.plan_next_hand(other)
            p.commit(other)


def _is_settled(play: Play, tournament: Tournament, other_ids: list[int]) -> bool:
    """Whether the plan has nothing to do: no move, no table to break or to draw, the
    waiting and hand-for-hand flags as they are.

    The other tables are read without their locks: every change at a tournament's table
    takes the tournament's row first (``TournamentBehaviour.lock_first``), and this
    transaction holds it, so these reads are what the locks would give. Locking them all
    after every hand held up every table of the tournament for nothing."""
    fields = ("seat_count", "big_blind_seat", "hand_events", "runout_revealed")
    tables = list(Table.objects.filter(pk__in=other_ids).only(*fields).order_by("pk"))
    players: dict[int, dict[int, Hashable]] = {}
    for table_id, number, entry_id, stack, bought in Seat.objects.filter(
        table_id__in=other_ids
    ).values_list("table_id", "number", "entry_id", "stack", "chips_to_add"):
        table_players = players.setdefault(table_id, {})  # any seat: the table counts
        if stack + bought > 0:  # chips bought (a rebuy, an add-on) arrive: still in
            table_players[number] = entry_id
    running = {  # a hand whose run-out is still being revealed is in play (rule 30)
        t.pk
        for t in tables
        if (state := hand_state(t)) is not None
        and (not state.is_over or t.runout_revealed is not None)
    }
    seatings = [table_seating(play)] + [
        TableSeating(
            t.pk,
            t.seat_count,
            players[t.pk],
            t.big_blind_seat,
            t.pk not in running,
        )
        for t in tables
        if t.pk in players
    ]
    result = engine.plan(seatings, tournament.seats, _rng)
    flags = _wait_or_go(tournament, seatings, result, bool(running))
    current = (tournament.is_waiting_for_tables, tournament.is_hand_for_hand)
    return result == SeatingPlan() and flags == current


def _wait_or_go(
    tournament: Tournament, seatings: list[TableSeating], result: SeatingPlan, is_busy: bool
) -> tuple[bool, bool]:
    """Whether tables between hands wait for the others (for the final table's draw, or
    hand-for-hand one player from the money: each table plays one hand, then all go on),
    and whether play is hand-for-hand."""
    left = sum(len(s.players) for s in seatings)
    paid = len(tournament.prizes(tournament.entries.count()))
    tables = sum(1 for s in seatings if s.players)
    hand_for_hand = tables > 1 and left == paid + 1 and not result.final_table
    return result.is_waiting_for_final_table or (hand_for_hand and is_busy), hand_for_hand


def _move(plays: dict[int, Play], result: SeatingPlan, ending: Play) -> None:
    """The plan's moves, then its broken tables closed; ``ending``: the table whose hand
    just ended."""
    notices = []
    for move in result.moves:
        source, target = plays[move.from_table], plays[move.to_table]
        number = next(n for n, s in source.seats.items() if s.entry_id == move.player)
        seat = source.seats.pop(number)
        source.removed.append(seat)  # its player is told they left, at the commit
        Seat.objects.filter(pk=seat.pk).delete()  # now: the seat may be taken in this plan
        busted = target.seats.pop(move.to_seat, None)
        if busted is not None:  # out of it (no chips), shown until the next deal: replaced
            Seat.objects.filter(pk=busted.pk).delete()
        # Out in the hand before: taken off at this deal, but its row goes at the commit.
        # A hand that ends as it is dealt (all in from the blinds) moves players before.
        leaving = [s.pk for s in target.removed if s.number == move.to_seat]
        Seat.objects.filter(pk__in=leaving).delete()
        arrived = Seat.objects.create(
            table=target.table,
            number=move.to_seat,
            user_id=seat.user_id,
            is_bot=seat.is_bot,
            bot_name=seat.bot_name,
            entry_id=seat.entry_id,
            stack=seat.stack,
            chips_to_add=seat.chips_to_add,  # a rebuy or add-on on its way comes along
            is_sitting_out=seat.is_sitting_out,
            time_bank=seat.time_bank,
            hands_since_refill=seat.hands_since_refill,
            joined_at_hand=target.table.hand_number,
            # Absent here until their page follows the move and opens it (rule 32).
            disconnected_at=None if seat.is_bot else target.now,
        )
        target.seats[move.to_seat] = arrived
        target.loaded[arrived.pk] = seat_values(arrived)
        if seat.user_id is not None:
            notices.append((seat.user_id, _moved_notice(target.table)))
    for table_id in result.broken:
        broken = plays[table_id]
        # The seats left are players out of it, shown until a next deal that never
        # comes. The hand that just ended stays on show with its players; any other
        # table's are cleared, or every later hand anywhere would lock and save it again.
        if broken is not ending:
            broken.removed.extend(broken.seats.values())
            broken.seats = {}
        _close(broken)
    broadcast.user_notices(notices)


def _final_table(
    tournament: Tournament, plays: dict[int, Play], final: dict[int, Hashable]
) -> None:
    """Everyone left redrawn at one new table, keeping their stacks, time banks and
    sitting-out state; every other table closed."""
    carried = {s.entry_id: s for each in plays.values() for s in each.seats.values() if s.entry_id}
    entries = Entry.objects.in_bulk([cast(int, e) for e in final.values()])
    seating = {seat: entries[cast(int, entry_id)] for seat, entry_id in final.items()}
    for each in plays.values():
        each.removed.extend(each.seats.values())
        each.seats = {}
        _close(each)
    table = table_open(tournament, f"{tournament.title} · Final table", seating, carried)
    # Its first hand is due after the usual pause, dealt by its own wake-up: dealt here,
    # a hand over at once (all in from the blinds, or everyone away) would run this
    # seating again while the old tables' seats are still saved.
    plan_first_hand(table)
    notice = _moved_notice(table)
    broadcast.user_notices([(e.user_id, notice) for e in seating.values() if e.user_id])


def _close(play: Play) -> None:
    table = play.table
    table.wake_at = table.deadline = table.next_hand_at = None


def _moved_notice(table: Table) -> dict[str, object]:
    url = reverse("tables:table_detail", args=[table.pk])
    # ``at``: when the move was made (the end of the hand that called for it), so a
    # client can tell how long reaching the new table took (``loadtest_mtt``).
    at = timezone.now().isoformat()
    return {"kind": "table_moved", "text": MOVED.format(name=table.name), "url": url, "at": at}

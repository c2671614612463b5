"""Eliminations, places and prizes, in the transaction that ends a hand.

Called by the tournament table's ``after_hand`` hook with the tournament and
its table locked (in that order) and the hand's final stacks on the seats.
Players left with no chips are out (their seats stay, with no chips, while the
hand is on show, and are cleared when the next is dealt); places follow rule 19
(``engine.finishing_places``); when one player is left the tournament is
finished and prizes (``engine.payouts``) are paid into the ledger, so the
points paid out equal the buy-ins taken in.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

import engine
from accounts import points
from accounts.models import PointsEntry
from tables.models import Hand
from tables.play import Play
from tournaments import broadcast
from tournaments.models import Entry, Tournament
from tournaments.prizes import split_prizes
from tournaments.selectors import place_text


def hand_ended(play: Play, tournament: Tournament) -> None:
    state = play.state
    assert state is not None
    busted = [n for n in state.players if n in play.seats and play.seats[n].stack == 0]
    if busted:
        entries = {e.pk: e for e in tournament.entries.filter(place=None)}
        players_left = len(entries)
        starting = {n: state.starting_stacks[n] or 0 for n in busted}
        places = engine.finishing_places(starting, players_left)  # rule 19
        out = {n: entries[play.seats[n].entry_id] for n in busted}  # type: ignore[index]
        hand = Hand.objects.get(table=play.table, number=play.table.hand_number)
        for number, entry in out.items():
            entry.final_hand = hand
            entry.place = places[number]
            entry.chips_at_elimination = starting[number]
            entry.eliminated_at = play.now
        order = _seat_order(state)
        _award(tournament, {out[n]: places[n] for n in busted}, [out[n] for n in order if n in out])
        if players_left - len(busted) == 1:
            winner = next(e for e in entries.values() if e not in out.values())
            winner.place, winner.final_hand = 1, hand
            _award(tournament, {winner: 1}, [winner])
            _finish(tournament, play)
        _tell_places(tournament, list(out.values()))
    broadcast.lobby_update(tournament.pk, is_stacks_only=not busted)


def _seat_order(state: engine.HandState) -> list[int]:
    """Seats from the first left of the button round to it (odd points: rule 12)."""
    count = state.seat_count
    return [(state.button + step) % count for step in range(1, count + 1)]


def _award(tournament: Tournament, places: dict[Entry, int], order: list[Entry]) -> None:
    """Save the places; pay each entry its share of the prizes into the ledger."""
    payouts = tournament.prizes(tournament.entries.count())
    prizes = split_prizes(payouts, places, order)
    for entry, prize in prizes.items():
        entry.prize = prize
        entry.save(
            update_fields=["place", "prize", "chips_at_elimination", "eliminated_at", "final_hand"]
        )
        if not prize:
            continue
        if entry.user is not None:
            points.points_move(
                user=entry.user,
                amount=prize,
                reason=PointsEntry.Reason.PRIZE,
                tournament=tournament,
                scope=tournament.points_scope,
            )
        elif not entry.is_bot:  # a member deleted while playing: no one to pay
            points.points_record_without_account(
                amount=prize,
                reason=PointsEntry.Reason.PRIZE,
                tournament=tournament,
                scope=tournament.points_scope,
            )


def _finish(tournament: Tournament, play: Play) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.ended_at = play.now
    tournament.save(update_fields=["status", "ended_at"])


def _tell_places(tournament: Tournament, out: list[Entry]) -> None:
    """Each member out of it (and the winner) hears their place on any open page."""
    lobby = reverse("tournaments:tournament_detail", args=[tournament.pk])
    notices: list[tuple[int, dict[str, Any]]] = []
    told = list(out)
    entrants = tournament.entries.count()
    unit = tournament.points_unit
    if tournament.status == Tournament.Status.FINISHED:
        told += list(tournament.entries.filter(place=1))
    for entry in told:
        if entry.user_id is None:
            continue
        notices.append(
            (
                entry.user_id,
                {
                    "kind": "tournament_place",
                    "text": place_text(entry, entrants, unit),
                    "url": lobby,
                    "place": entry.place,
                    "prize": entry.prize,
                },
            )
        )
    broadcast.user_notices(notices)

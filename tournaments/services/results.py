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
from tournaments.deals import accepted_deal
from tournaments.models import Entry, Tournament
from tournaments.prizes import split_prizes
from tournaments.selectors import place_text
from tournaments.services.bounties import (
    pay_bounties,
    pay_entry,
    pay_own_bounty,
    record_knockouts,
)
from tournaments.services.rebuy_offers import end_offers_if_rebuy_closed, offer_rebuys


def hand_ended(play: Play, tournament: Tournament) -> None:
    state = play.state
    assert state is not None
    busted = [n for n in state.players if n in play.seats and play.seats[n].stack == 0]
    busted = [n for n in busted if play.seats[n].chips_to_add == 0]  # bought back in already
    if busted:
        entries = {e.pk: e for e in tournament.entries.filter(place=None)}
        out = {n: entries[play.seats[n].entry_id] for n in busted}  # type: ignore[index]
        hand = Hand.objects.get(table=play.table, number=play.table.hand_number)
        starting = {n: state.starting_stacks[n] or 0 for n in busted}
        offered = offer_rebuys(tournament, [out[n] for n in busted], play.now)
        going = [n for n in busted if out[n] not in offered]
        for number in busted:
            out[number].final_hand = hand
            out[number].chips_at_elimination = starting[number]
        if tournament.bounty:
            record_knockouts(play, state, out)
        for entry in offered:
            entry.save(
                update_fields=[
                    "rebuy_offer_until",
                    "final_hand",
                    "chips_at_elimination",
                    "knocked_out_by",
                ]
            )
        if going:
            order = [out[n] for n in _seat_order(state) if n in going]
            eliminate(tournament, order, list(entries.values()), hand, play.now)
    broadcast.lobby_update(tournament.pk, is_stacks_only=not busted)


def eliminate(
    tournament: Tournament, out: list[Entry], still_in: list[Entry], hand: Hand | None, now: Any
) -> None:
    """``out`` (in seat order from the button's left: odd points, rule 12) are out of
    the tournament together, each with ``chips_at_elimination`` set; ``still_in`` is
    every entry without a place, ``out`` among them. Places by rule 19, prizes paid,
    and the last player left wins."""
    entrants = tournament.entries.count()
    _lock_payees(tournament, out, still_in)
    places = engine.finishing_places(
        {entry: entry.chips_at_elimination or 0 for entry in out}, len(still_in)
    )
    for entry in out:
        entry.place = places[entry]
        entry.eliminated_at = now
        entry.rebuy_offer_until = None
    _award(tournament, entrants, places, out)
    pay_bounties(tournament, out, still_in, hand)
    left = [entry for entry in still_in if entry not in places]
    if len(left) == 1:
        winner = left[0]
        winner.place, winner.final_hand = 1, hand or winner.final_hand
        _award(tournament, entrants, {winner: 1}, [winner])
        pay_own_bounty(tournament, winner)
        tournament.status = Tournament.Status.FINISHED
        tournament.ended_at = now
        tournament.save(update_fields=["status", "ended_at"])
    else:
        announce_the_money(tournament, entrants, len(still_in), len(left), now)
    end_offers_if_rebuy_closed(tournament, now)
    tell_places(tournament, entrants, out)


def _lock_payees(tournament: Tournament, out: list[Entry], still_in: list[Entry]) -> None:
    """The accounts this elimination may pay, locked in one order before any is paid:
    the prizes of those out and of the last player left, the bounties of who knocked
    them out (accounts/points.py, ``accounts_locked``)."""
    by_id = {entry.pk: entry for entry in still_in}
    knockers = {entry_id for entry in out for entry_id, _ in entry.knocked_out_by or []}
    left = [entry for entry in still_in if entry not in out]
    payees = [*out, *(by_id[pk] for pk in knockers if pk in by_id)]
    if len(left) == 1:
        payees.append(left[0])
    points.accounts_locked(
        user_ids=[entry.user_id for entry in payees], scope=tournament.points_scope
    )


def announce_the_money(
    tournament: Tournament, entrants: int, before: int, after: int, now: Any
) -> None:
    """The players left went from ``before`` to ``after``: when that burst the bubble
    (everyone left wins a prize now), or gave the first paid place while rebuys or the
    add-on were still sold (they close: rule 34), every table of the tournament and its
    lobby are told."""
    paid = len(tournament.prizes(entrants))
    news = []
    if after <= paid < before:
        news.append(f"In the money: each of the {after} players left wins a prize")
    if after < paid <= before:
        if tournament.is_rebuy_period(now):
            closed = "Rebuys and the add-on have" if tournament.addon_chips else "Rebuys have"
            news.append(f"{closed} closed: a paid place has been given")
        elif tournament.is_addon_period(now):
            news.append("The add-on has closed: a paid place has been given")
    if not news:
        return
    text = ". ".join(news)
    notice = {"kind": "money", "text": text, "places_paid": paid, "tournament_id": tournament.pk}
    for table_id in tournament.tables.order_by("pk").values_list("pk", flat=True):
        broadcast.table_notice(table_id, notice)
    broadcast.lobby_update(tournament.pk, announcement=text)


def _seat_order(state: engine.HandState) -> list[int]:
    """Seats from the first left of the button round to it (odd points: rule 12)."""
    count = state.seat_count
    return [(state.button + step) % count for step in range(1, count + 1)]


def _award(
    tournament: Tournament, entrants: int, places: dict[Entry, int], order: list[Entry]
) -> None:
    """Save the places; pay each entry its share of the prizes into the ledger. After
    an accepted deal, the places it covered were paid by it: the winner of the points
    kept back takes them, the others nothing more (``payouts_after_deal``)."""
    payouts = tournament.prizes(entrants)
    deal = accepted_deal(tournament)
    if deal is not None:
        payouts = payouts_after_deal(payouts, len(deal.amounts), deal.kept_for_winner)
    prizes = split_prizes(payouts, places, order)
    for entry, prize in prizes.items():
        entry.prize = prize + (deal.amount_of(entry.pk) if deal is not None else 0)
        entry.save(
            update_fields=[
                "place",
                "prize",
                "chips_at_elimination",
                "eliminated_at",
                "final_hand",
                "rebuy_offer_until",
                "knocked_out_by",
            ]
        )
        pay_prize(tournament, entry, prize)


def payouts_after_deal(payouts: tuple[int, ...], dealt: int, kept: int) -> tuple[int, ...]:
    """The prize table once a deal among ``dealt`` players paid their places: 1st is
    the ``kept`` points, the other dealt places nothing, the places above unchanged.

    >>> payouts_after_deal((50, 30, 20), 3, 10)
    (10, 0, 0)
    """
    return (kept, *([0] * (dealt - 1)), *payouts[dealt:])


def pay_prize(tournament: Tournament, entry: Entry, prize: int) -> None:
    """``prize`` points into the ledger for ``entry`` (a PRIZE row); bots are not paid."""
    pay_entry(tournament, entry, prize, PointsEntry.Reason.PRIZE)


def tell_places(tournament: Tournament, entrants: int, out: list[Entry]) -> None:
    """Each member out of it (and the winner) hears their place on any open page;
    ``entrants`` is the tournament's count of entries, which the caller has."""
    lobby = reverse("tournaments:tournament_detail", args=[tournament.pk])
    notices: list[tuple[int, dict[str, Any]]] = []
    told = list(out)
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

"""A deal at the final table (rule 28), read: when one may be proposed, what is left
to pay, the ICM and chip-chop figures for the stacks now, and the deal a table shows.

The writes are ``tournaments/services/deals.py``'s; the arithmetic is the engine's
(``engine/icm.py``). A deal is made between hands by 2 to 5 players left, all at
one table (docs/tournaments.md, "A deal at the final table").
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

import engine
from tables.errors import CannotDeal
from tables.models import Seat, Table
from tables.snapshot import iso
from tournaments.models import Deal, Entry, Tournament

FEWEST_PLAYERS, MOST_PLAYERS = 2, 5
# How the players left shared the prizes, as a sentence names it ("paid by ...").
DESCRIBED: dict[str, str] = {
    Deal.Method.ICM: "an ICM deal",
    Deal.Method.CHIP_CHOP: "a chip-chop deal",
    Deal.Method.CUSTOM: "a deal on amounts of the players' own",
}
_NO_DEAL: dict[str, Any] = {"deal": None, "deal_figures": None, "deal_proposers": ()}


def open_deal(tournament: Tournament) -> Deal | None:
    """The tournament's deal waiting for answers: read only when the tournament's row
    says one is open (``Tournament.has_open_deal``), once per tournament object."""
    if not tournament.has_open_deal:
        return None
    if not hasattr(tournament, "_open_deal"):
        found = tournament.deals.filter(status=Deal.Status.OPEN).first()
        tournament._open_deal = found  # type: ignore[attr-defined]
    return tournament._open_deal  # type: ignore[attr-defined, no-any-return]


def remember_open_deal(tournament: Tournament, deal: Deal | None) -> None:
    """Note on the tournament's row (saved) and object whether a deal is open."""
    tournament._open_deal = deal  # type: ignore[attr-defined]
    if tournament.has_open_deal != (deal is not None):
        tournament.has_open_deal = deal is not None
        tournament.save(update_fields=["has_open_deal"])


def accepted_deal(tournament: Tournament) -> Deal | None:
    return tournament.deals.filter(status=Deal.Status.ACCEPTED).first()


def seat_order(table: Table, seats: list[Seat]) -> list[Seat]:
    """``seats`` from the first left of the button round to it (as odd chips go,
    rule 12): the order that decides equal fractions and equal stacks."""
    button = table.button if table.button is not None else -1
    return sorted(seats, key=lambda seat: (seat.number - button - 1) % table.seat_count)


def finalists(
    tournament: Tournament,
    table: Table,
    seats: Mapping[int, Seat],
    is_hand_running: bool,
    now: datetime,
) -> list[Seat]:
    """The seats of the players left when a deal may be proposed at ``table`` now, in
    seat order; else ``CannotDeal`` saying why."""
    if tournament.status != Tournament.Status.RUNNING:
        raise CannotDeal("Deals are made while the tournament runs.")
    if is_hand_running:
        raise CannotDeal("A deal is made between hands: wait for this hand to end.")
    if open_deal(tournament) is not None:
        raise CannotDeal("A deal is already waiting for the players' answers.")
    if accepted_deal(tournament) is not None:
        raise CannotDeal("The players left have made their deal: they play on for the points kept.")
    with_chips = [seat for seat in seats.values() if seat.stack + seat.chips_to_add > 0]
    if not FEWEST_PLAYERS <= len(with_chips) <= MOST_PLAYERS:
        raise CannotDeal("Deals are made when 2 to 5 players are left.")
    left = list(tournament.entries.filter(place=None).values_list("pk", "rebuy_offer_until"))
    if any(until is not None for _, until in left):
        raise CannotDeal("Wait for the player out of chips to decide on their rebuy.")
    if {seat.entry_id for seat in with_chips} != {pk for pk, _ in left}:
        raise CannotDeal("Deals are made at the final table, once every player left is at it.")
    if tournament.is_rebuy_open(now) or tournament.is_addon_open(now):
        raise CannotDeal("Deals are made once the rebuys and the add-on are over.")
    if tournament.is_late_registration_open(now):
        raise CannotDeal("Deals are made once late registration has closed.")
    return seat_order(table, with_chips)


def prizes_left(tournament: Tournament, players_left: int) -> tuple[int, ...]:
    """The prizes of the places not yet paid: 1st to ``players_left``-th."""
    return tuple(tournament.prizes(tournament.entries.count())[:players_left])


def most_kept(prizes: tuple[int, ...]) -> int:
    """The most points the players may keep back for the winner (rule 28)."""
    if not prizes:
        return 0
    return prizes[0] - (prizes[1] if len(prizes) > 1 else 0)


def figures(
    method: str, stacks: list[int], prizes: tuple[int, ...], kept_for_winner: int
) -> tuple[int, ...]:
    """The ICM or chip-chop deal in whole points, stacks in seat order (the order the
    engine breaks ties in); ``ValueError`` when ``kept_for_winner`` is not possible."""
    deal = engine.icm_deal if method == Deal.Method.ICM else engine.chip_chop_deal
    return deal(stacks, prizes, kept_for_winner=kept_for_winner)


def table_deal(
    tournament: Tournament,
    table: Table,
    seats: Mapping[int, Seat],
    is_hand_running: bool,
    now: datetime,
) -> dict[str, Any]:
    """The snapshot's ``deal`` (the open deal, or the one decided since the last hand)
    and ``deal_figures`` (what ICM and a chip chop pay now, when a deal may be
    proposed), and which seats may propose one. No query at a table of more than 5
    players or during a hand."""
    with_chips = [seat for seat in seats.values() if seat.stack + seat.chips_to_add > 0]
    if is_hand_running or not FEWEST_PLAYERS <= len(with_chips) <= MOST_PLAYERS:
        return dict(_NO_DEAL)
    latest = tournament.deals.order_by("-created_at", "-pk").first()
    shown = None
    if latest is not None and (
        latest.status == Deal.Status.OPEN or latest.hand_number == table.hand_number
    ):
        shown = deal_view(latest, seats)
    try:
        ordered = finalists(tournament, table, seats, is_hand_running, now)
    except CannotDeal:
        return {"deal": shown, "deal_figures": None, "deal_proposers": ()}
    prizes = prizes_left(tournament, len(ordered))
    if not sum(prizes):
        return {"deal": shown, "deal_figures": None, "deal_proposers": ()}
    stacks = [seat.stack + seat.chips_to_add for seat in ordered]
    by_seat = {
        method: dict(
            zip([s.number for s in ordered], figures(method, stacks, prizes, 0), strict=True)
        )
        for method in (Deal.Method.ICM, Deal.Method.CHIP_CHOP)
    }
    return {
        "deal": shown,
        "deal_figures": {
            "to_pay": sum(prizes),
            "prizes": list(prizes),
            "most_kept": most_kept(prizes),
            "stacks": {seat.number: seat.stack + seat.chips_to_add for seat in ordered},
            "icm": by_seat[Deal.Method.ICM],
            "chip_chop": by_seat[Deal.Method.CHIP_CHOP],
            "unit": tournament.points_unit,
        },
        "deal_proposers": tuple(seat.number for seat in ordered if not seat.is_bot),
    }


def deal_view(deal: Deal, seats: Mapping[int, Seat]) -> dict[str, Any]:
    """A deal as the table shows it, by seat (public: amounts are public once proposed)."""
    seat_of = {seat.entry_id: seat.number for seat in seats.values() if seat.entry_id}
    names = {seat.entry_id: seat.name for seat in seats.values() if seat.entry_id}

    def by_seat(values: Mapping[str, Any]) -> dict[int, Any]:
        return {seat_of[int(k)]: v for k, v in values.items() if int(k) in seat_of}

    return {
        "method": deal.method,
        "status": deal.status,
        "proposer_seat": seat_of.get(deal.proposer_id),
        "amounts": by_seat(deal.amounts),
        "stacks": by_seat(deal.stacks),
        "names": by_seat({k: names.get(int(k)) for k in deal.amounts}),
        "kept_for_winner": deal.kept_for_winner,
        "ends_at": iso(deal.ends_at),
        "answers": by_seat(deal.answers),
    }


def deal_summary(tournament: Tournament) -> dict[str, Any] | None:
    """The tournament's accepted deal, for its page and the API: how it was worked
    out, the points kept for the winner and what each player was paid by it (the
    bigger amount first). None without one (no query before the start)."""
    if tournament.started_at is None:
        return None
    deal = accepted_deal(tournament)
    if deal is None:
        return None
    entries = Entry.objects.filter(pk__in=[int(k) for k in deal.amounts])
    names = dict(entries.values_list("pk", "name"))
    shares = sorted(deal.amounts.items(), key=lambda item: (-int(item[1]), int(item[0])))
    return {
        "method": deal.method,
        "method_name": deal.get_method_display(),
        "described": DESCRIBED[deal.method],
        "kept_for_winner": deal.kept_for_winner,
        "decided_at": iso(deal.decided_at),
        "amounts": [
            {"name": names.get(int(k), ""), "amount": int(v), "stack": int(deal.stacks.get(k, 0))}
            for k, v in shares
        ],
    }

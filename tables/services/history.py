"""Hand history: the Hand row at the start, completed with its players at the end.

Both are written inside the transaction that changes the table, so history
never disagrees with play. The per-player facts follow the tracker
definitions of POKER_RULES.md ("Statistics").
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

import engine
from engine.phh import phh_order
from tables import kinds
from tables.models import Hand, HandPlayer, Seat, Table


def hand_begin(table: Table, state: engine.HandState, now: datetime) -> Hand:
    return Hand.objects.create(
        table=table,
        number=table.hand_number,
        button=state.button,
        small_blind_seat=state.small_blind_seat,
        big_blind_seat=state.big_blind_seat,
        small_blind=state.small_blind,
        big_blind=state.big_blind,
        ante=state.ante,
        level=table.level,
        started_at=now,
        events=[event.to_dict() for event in state.events],
    )


def hand_finish(
    table: Table, seats: Mapping[int, Seat], state: engine.HandState, now: datetime
) -> Hand:
    hand = Hand.objects.get(table=table, number=table.hand_number)
    events = [event.to_dict() for event in state.events]
    names = {n: seats[n].name for n in state.players}
    hand.ended_at = now
    hand.board = [engine.card_str(c) for c in state.board]
    hand.pots = [e for e in events if e["kind"] == "pot_awarded"]
    hand.events = events
    hand.final_stacks = list(state.stacks)
    hand.phh = engine.to_phh(
        state,
        players=[names[n] for n in phh_order(state)],
        table=table.name,
        hand=hand.number,
        **kinds.of(table).history_fields(table, hand.started_at),
    )
    hand.save()
    HandPlayer.objects.bulk_create(
        [_hand_player(hand, seats[n], state, events) for n in state.players]
    )
    return hand


def _hand_player(
    hand: Hand, seat: Seat, state: engine.HandState, events: list[dict[str, Any]]
) -> HandPlayer:
    number = seat.number
    start = state.starting_stacks[number] or 0
    facts = tracker_facts(number, events)
    return HandPlayer(
        hand=hand,
        user=seat.user,
        seat=number,
        name=seat.name,
        is_bot=seat.is_bot,
        hole_cards=[engine.card_str(c) for c in state.hole_cards(number)],
        starting_stack=start,
        final_stack=state.stacks[number],
        net=state.stacks[number] - start,
        was_shown=state.has_shown[number],
        is_button=state.button == number,
        is_small_blind=state.small_blind_seat == number,
        is_big_blind=state.big_blind_seat == number,
        **facts,
    )


def tracker_facts(seat: int, events: list[dict[str, Any]]) -> dict[str, bool]:
    """VPIP, PFR, 3-bet, saw flop, showdown and winnings for one seat, from the log."""
    preflop = [e for e in events if e["kind"] == "player_acted" and e["street"] == "preflop"]
    mine = [e for e in preflop if e["seat"] == seat]
    raises_before = _raises_faced(preflop, seat)
    folded_at = _fold_index(events, seat)
    flop_at = next((i for i, e in enumerate(events) if e["kind"] == "board_dealt"), None)
    saw_flop = flop_at is not None and (folded_at is None or folded_at > flop_at)
    went_to_showdown = folded_at is None and _is_showdown(events)
    won = any(
        share["seat"] == seat for e in events if e["kind"] == "pot_awarded" for share in e["shares"]
    )
    return {
        "vpip": any(e["action"] in ("call", "bet", "raise") for e in mine),
        "pfr": any(e["action"] in ("bet", "raise") for e in mine),
        "three_bet": 1 in raises_before["raised_at"],
        "could_three_bet": 1 in raises_before["faced"],
        "saw_flop": saw_flop,
        "went_to_showdown": went_to_showdown,
        "won_at_showdown": went_to_showdown and won,
        "won_chips": won,
    }


def _raises_faced(preflop: list[dict[str, Any]], seat: int) -> dict[str, set[int]]:
    """How many raises stood when the seat acted preflop, and when it raised."""
    raises = 0
    faced: set[int] = set()
    raised_at: set[int] = set()
    for event in preflop:
        if event["seat"] == seat:
            faced.add(raises)
            if event["action"] in ("bet", "raise"):
                raised_at.add(raises)
        if event["action"] in ("bet", "raise"):
            raises += 1
    return {"faced": faced, "raised_at": raised_at}


def _fold_index(events: list[dict[str, Any]], seat: int) -> int | None:
    return next(
        (
            i
            for i, e in enumerate(events)
            if e["kind"] == "player_acted" and e["seat"] == seat and e["action"] == "fold"
        ),
        None,
    )


def _is_showdown(events: list[dict[str, Any]]) -> bool:
    """Contested to the end: some pot was decided by comparing hands."""
    return any(e["kind"] == "pot_awarded" and e["description"] is not None for e in events)

"""Hand history: the Hand row at the start, completed with its players at the end.

Both are written inside the transaction that changes the table, so history
never disagrees with play; only an all-in's EV is filled in after commit
(tables/history/allin_ev.py). The per-player facts follow the tracker
definitions in docs/history.md, decided in tables/history/facts.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction

import engine
from engine.phh import phh_order
from tables.history import allin_ev
from tables.history.facts import hand_facts, has_allin_ev
from tables.history.projection import phh_fields
from tables.history.stats import totals_add
from tables.models import Hand, HandPlayer, Seat, Table


def hand_begin(table: Table, state: engine.HandState, now: datetime) -> Hand:
    """The Hand row, with the deck sealed (engine.fairness) before any card is shown."""
    seal = engine.seal_deck(state.deck)
    table.commitment = seal.commitment
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
        commitment=seal.commitment,
        deck_leaves=list(seal.leaves),
        deck_salts=list(seal.salts),
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
        state, players=[names[n] for n in phh_order(state)], **phh_fields(hand)
    )
    hand.pot = sum(e["amount"] for e in hand.pots)
    # The all-in EV's equity would hold the table's lock too long: filled in after.
    hand.allin_ev_pending = has_allin_ev(state)
    hand.save()
    facts = hand_facts(state, with_allin_ev=False)
    HandPlayer.objects.bulk_create(
        [_hand_player(hand, seats[n], state, facts[n]) for n in state.players]
    )
    totals_add(HandPlayer.objects.filter(hand=hand))
    if hand.allin_ev_pending:
        hand_id = hand.pk
        transaction.on_commit(lambda: allin_ev.request(hand_id))
    return hand


def _hand_player(
    hand: Hand, seat: Seat, state: engine.HandState, facts: dict[str, Any]
) -> HandPlayer:
    number = seat.number
    start = state.starting_stacks[number] or 0
    return HandPlayer(
        hand=hand,
        user=seat.user,
        started_at=hand.started_at,
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

"""What one viewer may see of a hand, as JSON-ready data.

A seat sees its own hole cards, other players' cards only once they are
turned face up (showdown, or an all-in run-out by rule 14), and never the
deck or mucked cards. A spectator (``None``) sees no hole cards at all.
"""

from __future__ import annotations

from typing import Any

from engine.betting import legal_actions
from engine.cards import card_str
from engine.events import CardsMucked, Event, HandStarted, HoleCardsDealt
from engine.state import HandState


def view(state: HandState, seat: int | None) -> dict[str, Any]:
    """The hand as ``seat`` (or a spectator, ``None``) may see it."""
    legal = legal_actions(state)
    my_turn = seat is not None and legal.actor == seat
    return {
        "viewer": seat,
        "street": state.street,
        "is_over": state.is_over,
        "button": state.button,
        "small_blind_seat": state.small_blind_seat,
        "big_blind_seat": state.big_blind_seat,
        "small_blind": state.small_blind,
        "big_blind": state.big_blind,
        "ante": state.ante,
        "board": [card_str(c) for c in state.board],
        "current_bet": state.current_bet,
        "pots": [{"amount": p.amount, "eligible": list(p.eligible)} for p in state.pots],
        "seats": [_seat_view(state, s, seat) for s in range(state.seat_count)],
        "hole_cards": _cards(state, seat) if seat is not None else None,
        "legal_actions": {
            "can_check": legal.can_check,
            "can_fold": legal.can_fold,
            "call_amount": legal.call_amount,
            "min_raise_to": legal.min_raise_to,
            "max_raise_to": legal.max_raise_to,
        }
        if my_turn
        else None,
        "log": [_public_event(e, seat) for e in state.events],
    }


def _cards(state: HandState, seat: int) -> list[str] | None:
    if not state.is_dealt_in[seat]:
        return None
    return [card_str(c) for c in state.holes[seat]]


def _seat_view(state: HandState, seat: int, viewer: int | None) -> dict[str, Any]:
    visible = seat == viewer or state.has_shown[seat]
    return {
        "seat": seat,
        "is_dealt_in": state.is_dealt_in[seat],
        "stack": state.stacks[seat],
        "bet": state.bets[seat],
        "has_folded": state.has_folded[seat],
        "is_all_in": state.is_all_in(seat),
        "is_to_act": state.actor == seat,
        "cards": _cards(state, seat) if visible else None,
    }


def _public_event(event: Event, viewer: int | None) -> dict[str, Any]:
    data = event.to_dict()
    if isinstance(event, HandStarted):
        del data["deck"]
    elif isinstance(event, HoleCardsDealt | CardsMucked) and event.seat != viewer:
        del data["cards"]
    return data

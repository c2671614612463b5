"""What one viewer may see of a hand, as JSON-ready data.

A seat sees its own hole cards, other players' cards only once they are
turned face up (showdown, or an all-in run-out by rule 14), and never the
deck or mucked cards. A spectator (``None``) sees no hole cards at all.

>>> from engine.cards import DECK
>>> from engine.deal import new_hand
>>> hand = new_hand([100, 100, 100], button=0, small_blind=1, big_blind=2, deck=DECK)
>>> [seat["cards"] for seat in view(hand, 1)["seats"]]
[None, ['2c', '2s'], None]
>>> [seat["cards"] for seat in view(hand, None)["seats"]]
[None, None, None]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from engine.betting import LegalActions, legal_actions
from engine.cards import card_str
from engine.events import CardsMucked, Event, HandStarted, HoleCardsDealt
from engine.state import HandState

EVERY_CARD: Final = "every card"
"""The viewer who sees every card dealt: the whole record, as staff settling a
dispute or the player's own export after the hand need it (``to_phh``'s default)."""


def view(state: HandState, seat: int | None) -> dict[str, Any]:
    """The hand as ``seat`` (or a spectator, ``None``) may see it."""
    return views(state, [seat])[seat]


def views(state: HandState, viewers: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """``view(state, v)`` for every ``v`` in ``viewers``, equal to it item for item.

    Cheaper for a broadcast: the board, pots and public log are built once and
    shared; only the viewer's own dealt/mucked cards are added to their copy of
    the log. The shared lists and entries must be treated as read-only.
    """
    legal = legal_actions(state)
    public: dict[str, list[Any]] = {
        "board": [card_str(c) for c in state.board],
        "second_board": [card_str(c) for c in state.second_board],
        "pots": [{"amount": p.amount, "eligible": list(p.eligible)} for p in state.pots],
        "log": [_public_event(e) for e in state.events],
    }
    return {seat: _view(state, seat, legal, public) for seat in viewers}


def _view(
    state: HandState, seat: int | None, legal: LegalActions, public: dict[str, list[Any]]
) -> dict[str, Any]:
    my_turn = seat is not None and legal.actor == seat
    return {
        "viewer": seat,
        "game": state.game,
        "street": state.street,
        "is_over": state.is_over,
        "button": state.button,
        "small_blind_seat": state.small_blind_seat,
        "big_blind_seat": state.big_blind_seat,
        "small_blind": state.small_blind,
        "big_blind": state.big_blind,
        "ante": state.ante,
        "straddle_seat": state.straddle_seat,
        "bomb_pot": state.bomb_pot,
        "run_it_twice": state.run_it_twice,
        "runout_pending": state.runout_pending,
        "board": public["board"],
        "second_board": public["second_board"],
        "current_bet": state.current_bet,
        "pots": public["pots"],
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
        "log": _log(state, seat, public["log"]),
    }


def _log(state: HandState, seat: int | None, public_log: list[dict[str, Any]]) -> list[Any]:
    if seat is None:
        return list(public_log)
    return [
        e.to_dict() if isinstance(e, HoleCardsDealt | CardsMucked) and e.seat == seat else shown
        for e, shown in zip(state.events, public_log, strict=True)
    ]


def _cards(state: HandState, seat: int) -> list[str] | None:
    if not state.is_dealt_in[seat]:
        return None
    return [card_str(c) for c in state.holes[seat]]


def sees_hole_cards(state: HandState, viewer: int | None, seat: int) -> bool:
    """Whether ``viewer`` (a seat, or ``None`` for a spectator) may see ``seat``'s hole
    cards: its own, and any turned face up (showdown, or an all-in run-out by rule 14).

    The one definition every projection uses (views, PHH and PokerStars text).

    >>> from engine.cards import DECK
    >>> from engine.deal import new_hand
    >>> hand = new_hand([100, 100], button=0, small_blind=1, big_blind=2, deck=DECK)
    >>> [sees_hole_cards(hand, 0, seat) for seat in (0, 1)]
    [True, False]
    """
    return seat == viewer or state.has_shown[seat]


def _seat_view(state: HandState, seat: int, viewer: int | None) -> dict[str, Any]:
    visible = sees_hole_cards(state, viewer, seat)
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


def _public_event(event: Event) -> dict[str, Any]:
    """What everyone may see of an event: no deck, no face-down cards."""
    if isinstance(event, HandStarted):
        return event.to_dict(leave_out=_DECK)
    if isinstance(event, HoleCardsDealt | CardsMucked):
        return event.to_dict(leave_out=_CARDS)
    return event.to_dict()


_DECK = frozenset({"deck"})
_CARDS = frozenset({"cards"})

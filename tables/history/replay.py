"""The replayer's steps: the table as the viewer saw it after each decision.

Each step is the live table's TABLE shape (docs/protocol.md), so the page draws
it with the same code as live play (static/js/render.js), built from
``engine.view`` of the hand at that moment for the viewer's seat: cards appear
when the viewer saw them (their own from the deal, others' when turned face
up). Equity per street is computed over the hands the viewer saw by the end
of the hand, among those still live when the street began.
"""

from __future__ import annotations

from random import Random
from typing import Any

import engine
from engine.events import PlayerActed
from engine.replay import action_of
from tables.history.projection import EVERY_CARD, ViewedHand

ACTION_WORDS = {"fold": "folds", "check": "checks", "call": "calls", "bet": "bets"}


def replay_steps(viewed: ViewedHand) -> list[dict[str, Any]]:
    """The table before the first decision, then after each one (the last: the result)."""
    events = viewed.state.events
    first = next((i for i, e in enumerate(events) if isinstance(e, PlayerActed)), len(events))
    state = engine.replay(events[:first])
    names = {p.seat: p.name for p in viewed.players}
    steps = [_step(viewed, state, names, "Cards dealt")]
    for event in events[first:]:
        if isinstance(event, PlayerActed):
            state = engine.apply_action(state, action_of(event))
            steps.append(_step(viewed, state, names, _describe(event, names)))
        elif isinstance(event, engine.RunoutsChosen):  # rule 25: the players' choice
            state = engine.choose_runouts(state, event.count)
            label = "The players run it twice" if event.count == 2 else "The board is run once"
            steps.append(_step(viewed, state, names, label))
    steps[-1]["label"] += " · " + _result(viewed, names) if viewed.state.is_over else ""
    _add_equity(viewed, steps)
    return steps


def _describe(event: PlayerActed, names: dict[int, str]) -> str:
    name = names.get(event.seat, f"Seat {event.seat + 1}")
    if event.action == "raise":
        words = f"raises to {event.total}"
    else:
        words = ACTION_WORDS[event.action]
        words += f" {event.amount}" if event.action in ("call", "bet") else ""
    return f"{name} {words}" + (" (all-in)" if event.is_all_in else "")


def _result(viewed: ViewedHand, names: dict[int, str]) -> str:
    won: dict[int, int] = {}
    for event in viewed.state.events:
        if isinstance(event, engine.PotAwarded):
            for seat, chips in event.shares:
                won[seat] = won.get(seat, 0) + chips
    return ", ".join(f"{names.get(s, s)} wins {chips}" for s, chips in sorted(won.items()) if chips)


def _step(
    viewed: ViewedHand, state: engine.HandState, names: dict[int, str], label: str
) -> dict[str, Any]:
    view = engine.view(state, viewed.own_seat)
    return {
        "label": label,
        "street": state.street,
        "live": [s for s in state.players if not state.has_folded[s]],
        "table": {
            "seat_count": state.seat_count,
            "your_seat": viewed.own_seat,
            "kind": "replay",
            "seats": [
                _seat(viewed, state, view["seats"][number], names)
                for number in range(state.seat_count)
            ],
            "hand": {
                "game": state.game,
                "is_over": state.is_over,
                "board": view["board"],
                "second_board": view["second_board"],
                "pots": [{"amount": p["amount"], "seats": p["eligible"]} for p in view["pots"]],
                "winners": _winners(state) if state.is_over else [],
            },
        },
    }


def _seat(
    viewed: ViewedHand, state: engine.HandState, info: dict[str, Any], names: dict[int, str]
) -> dict[str, Any]:
    """One seat in the live table's shape, from the viewer's ``engine.view``."""
    number = info["seat"]
    if not info["is_dealt_in"]:
        return {"seat": number, "occupied": False}
    cards = info["cards"]
    if viewed.viewer == EVERY_CARD:  # staff: every hand face up
        cards = [engine.card_str(c) for c in state.hole_cards(number)]
    return {
        "seat": number,
        "occupied": True,
        "name": names.get(number, f"Seat {number + 1}"),
        "is_bot": any(p.is_bot for p in viewed.players if p.seat == number),
        "is_you": number == viewed.own_seat,
        "stack": info["stack"],
        "bet": info["bet"],
        "is_dealt_in": True,
        "has_folded": info["has_folded"],
        "is_all_in": info["is_all_in"],
        "is_to_act": False,  # no clock runs in a replay
        "is_button": number == state.button,
        "is_small_blind": number == state.small_blind_seat,
        "is_big_blind": number == state.big_blind_seat,
        "is_straddle": number == state.straddle_seat,
        "cards": cards,
    }


def _winners(state: engine.HandState) -> list[dict[str, Any]]:
    """As the live table's (tables/snapshot.py): per seat, and per board (the
    first's first) when the hand was run twice."""
    ran_twice = bool(state.second_board)
    won: dict[tuple[int, int], dict[str, Any]] = {}
    for event in state.events:
        if isinstance(event, engine.PotAwarded):
            for seat, chips in event.shares:
                entry = won.setdefault(
                    (event.run, seat),
                    {
                        "seat": seat,
                        "amount": 0,
                        "description": event.description,
                        "board": event.run + 1 if ran_twice else None,
                    },
                )
                entry["amount"] += chips
    return [won[key] for key in sorted(won)]


def _add_equity(viewed: ViewedHand, steps: list[dict[str, Any]]) -> None:
    """Each visible live hand's equity (percent) from the first step of each street,
    and whether it is an estimate (``equity_is_estimate``)."""
    final = viewed.state
    known = [s for s in final.players if viewed.sees(s)]
    cache: dict[tuple[str, tuple[int, ...]], tuple[dict[int, float], bool]] = {}
    for step in steps:
        live = [s for s in step.pop("live") if s in known]
        board = tuple(engine.card(c) for c in step["table"]["hand"]["board"])
        key = (str(len(board)), tuple(live))
        if key not in cache:
            cache[key] = _equity(final, live, board)
        step["equity"], step["equity_is_estimate"] = cache[key]


def _equity(
    state: engine.HandState, live: list[int], board: tuple[int, ...]
) -> tuple[dict[int, float], bool]:
    if not 2 <= len(live) <= engine.EQUITY_MAX_HANDS or len(board) == 5:
        return {}, False
    hands = [state.hole_cards(s) for s in live]
    # exact where cheap; an Omaha hand before the flop is sampled (error well under 1%)
    estimate = engine.estimate_equity(hands, board=board, rng=Random(0))
    shares = {
        seat: round(share * 100, 1) for seat, share in zip(live, estimate.shares, strict=True)
    }
    return shares, not estimate.exact

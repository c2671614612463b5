"""A hand whose all-in run-out is being revealed, as far as the felt shows it
(docs/rules.md rule 30, docs/protocol.md "A run-out revealed").

The engine deals a run-out in one go, so the saved hand is already over, its
winners paid. While ``Table.runout_revealed`` counts the run-out's streets put
on the felt so far, every viewer's hand view is cut back to them: the log ends
after the last street revealed, the boards hold only the cards dealt by then,
the pots are the ones still to be won and each stack is what it was before the
awards. Nobody's hand name, result or winnings show before the cards that make
them. The hole cards turned up at the all-in (rule 14) were shown before the
cut, so they stay.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables.models import Table


def is_revealing(table: Table) -> bool:
    """Whether the hand on display is an all-in run-out still being revealed."""
    return table.runout_revealed is not None


def revealed_views(
    table: Table, hand_views: Mapping[int | None, dict[str, Any]]
) -> dict[int | None, dict[str, Any]]:
    """``hand_views`` (``engine.views`` of the finished hand) as the felt shows them
    with ``table.runout_revealed`` of the run-out's streets dealt. A viewer who shares
    the spectators' view object gets the same projected object."""
    revealed = table.runout_revealed or 0
    projected: dict[int, dict[str, Any]] = {}
    return {
        viewer: projected.setdefault(id(view), revealed_view(view, revealed))
        for viewer, view in hand_views.items()
    }


def visible_length(log: list[dict[str, Any]], revealed: int) -> int:
    """How many of the log's first events the felt shows: up to the all-in's turned-up
    cards (and the players' choice of run-outs), then ``revealed`` run-out streets;
    never the showdown after them (cards shown again or mucked, pots, the end)."""
    is_run_out = False
    streets = 0
    for index, event in enumerate(log):
        kind = event["kind"]
        if not is_run_out:
            is_run_out = kind == "cards_shown"
        elif kind == "board_dealt":
            if streets == revealed:
                return index
            streets += 1
        elif streets or kind not in ("cards_shown", "runouts_chosen"):
            return index
    return len(log)


def revealed_view(view: dict[str, Any], revealed: int) -> dict[str, Any]:
    """One viewer's hand view cut back to ``revealed`` run-out streets."""
    log = view["log"]
    cut = visible_length(log, revealed)
    shown, hidden = log[:cut], log[cut:]
    return {
        **view,
        "is_over": False,
        "is_revealing": True,
        "street": _street(shown),
        "board": view["board"][: _cards_dealt(shown, 0)],
        "second_board": _second_board(view["second_board"], shown, log),
        "pots": _pots_to_win(hidden),
        "seats": _seats_before_awards(view["seats"], hidden),
        "log": shown,
    }


def _cards_dealt(log: list[dict[str, Any]], run: int) -> int:
    return sum(
        len(e["cards"]) for e in log if e["kind"] == "board_dealt" and e.get("run", 0) == run
    )


def _second_board(
    board: list[str], shown: list[dict[str, Any]], log: list[dict[str, Any]]
) -> list[str]:
    """The second board once its first street is on the felt: the cards it shares with
    the first (dealt before the all-in), then its own revealed so far."""
    own = _cards_dealt(shown, 1)
    if not own:
        return []
    shared = len(board) - _cards_dealt(log, 1)
    return board[: shared + own]


def _street(shown: list[dict[str, Any]]) -> str:
    dealt = [e["street"] for e in shown if e["kind"] == "board_dealt"]
    return dealt[-1] if dealt else "preflop"


def _pots_to_win(hidden: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The pots as they stand before anything is awarded (a pot run twice is paid in
    two halves: both count)."""
    pots: dict[int, dict[str, Any]] = {}
    for event in hidden:
        if event["kind"] == "pot_awarded":
            pot = pots.setdefault(
                event["pot_index"], {"amount": 0, "eligible": list(event["eligible"])}
            )
            pot["amount"] += event["amount"]
    return [pots[index] for index in sorted(pots)]


def _seats_before_awards(
    seats: list[dict[str, Any]], hidden: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    won: dict[int, int] = {}
    for event in hidden:
        if event["kind"] == "pot_awarded":
            for share in event["shares"]:
                won[share["seat"]] = won.get(share["seat"], 0) + share["amount"]
    entries = []
    for entry in seats:
        stack = entry["stack"] - won.get(entry["seat"], 0)
        is_live = entry["is_dealt_in"] and not entry["has_folded"]
        entries.append({**entry, "stack": stack, "is_all_in": is_live and stack == 0})
    return entries


def hold_back(snapshot: dict[str, Any]) -> None:
    """No hand name for a board not yet complete (the viewer's own: ``your_hand``)."""
    hand = snapshot["hand"]
    if hand is None:
        return
    if len(hand["board"]) < 5:
        snapshot["your_hand"] = None
    if len(hand["second_board"]) < 5:
        snapshot["your_hand_second_board"] = None

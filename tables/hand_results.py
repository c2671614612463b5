"""What a hand's cards make for the table's snapshot: the viewer's own hand's name
(``your_hand``) and the winners with the five cards each played (``hand_winners``)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import engine
from tables.models import Seat


def _cards(texts: Sequence[str]) -> tuple[int, ...]:
    return tuple([engine.card(c) for c in texts])


def your_hand(hand_view: dict[str, Any] | None, viewer: Seat | None, run: int = 0) -> str | None:
    """What the viewer's own cards make with the board ("Pair of Nines"), while they
    hold them; only ever in that viewer's own snapshot (``hand_view`` is theirs).
    With ``run`` 1, on the second board of a hand run twice (rule 25), else None."""
    if hand_view is None or viewer is None:
        return None
    played = hand_view["seats"][viewer.number]
    if not played or not played["cards"] or played["has_folded"]:
        return None
    board = hand_view["second_board"] if run else hand_view["board"]
    if run and not board:
        return None
    return _strength(hand_view["game"], tuple(played["cards"]), tuple(board))


# Every change at a table names each seated player's hand in their snapshot, though
# their cards and the board change only a few times a hand: a hand's name is kept
# for the next actions (an Omaha hand's is the best of sixty five-card hands).
@functools.lru_cache(maxsize=4096)
def _strength(game: str, hole: tuple[str, ...], board: tuple[str, ...]) -> str:
    return engine.GAMES[game].strength(_cards(hole), _cards(board))


def best_cards(hand_view: dict[str, Any], seat: int, run: int = 0) -> list[str]:
    """The five cards a shown winning hand played (its hole cards and the board's;
    in Omaha exactly two and three, rule 21), on the second board for ``run`` 1."""
    played = hand_view["seats"][seat]
    board = hand_view["second_board"] if run else hand_view["board"]
    if not played or not played["cards"] or len(board) < 3:
        return []
    game = engine.GAMES[hand_view["game"]]
    best = game.best_five(_cards(played["cards"]), _cards(board))
    return [engine.card_str(c) for c in best]


def hand_winners(log: list[dict[str, Any]], hand_view: dict[str, Any]) -> list[dict[str, Any]]:
    """Chips won per seat over all pots, with the best hand that won them and, when
    shown down, the five cards it played; for a hand run twice (rule 25), per board
    and seat, the first board's first, ``board`` saying which (1 or 2; None for a
    hand run once)."""
    ran_twice = bool(hand_view["second_board"])
    won: dict[tuple[int, int], dict[str, Any]] = {}
    for event in log:
        if event["kind"] != "pot_awarded":
            continue
        run = event.get("run", 0)
        for share in event["shares"]:
            entry = won.setdefault(
                (run, share["seat"]),
                {
                    "seat": share["seat"],
                    "amount": 0,
                    "description": event["description"],
                    "cards": best_cards(hand_view, share["seat"], run)
                    if event["description"]
                    else [],
                    "board": run + 1 if ran_twice else None,
                },
            )
            entry["amount"] += share["amount"]
    return [won[key] for key in sorted(won)]

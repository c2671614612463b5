"""The games the engine deals: No-Limit Hold'em and Pot-Limit Omaha.

A hand names its game by a short code (``HandState.game``, the ``game`` of
its ``hand_started`` event); ``GAMES`` maps each code to what differs between
the games: how many hole cards each player gets, how a hand is valued at the
showdown, and whether bets are capped at the size of the pot.

>>> GAMES[POT_LIMIT_OMAHA].hole_card_count, GAMES[POT_LIMIT_OMAHA].name
(4, 'Pot-Limit Omaha')
>>> game_named("holdem")
Traceback (most recent call last):
  ...
ValueError: 'holdem' is not a game: 'nlhe' (No-Limit Hold'em) or 'plo' (Pot-Limit Omaha)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from engine.evaluator import best_five, describe, evaluate, evaluate_omaha, strength

NO_LIMIT_HOLDEM: Final = "nlhe"
POT_LIMIT_OMAHA: Final = "plo"


Cards = tuple[int, ...]


def _holdem_value(hole: Cards, board: Cards) -> int:
    return evaluate(board + hole)  # any five of the seven


def _holdem_strength(hole: Cards, board: Cards) -> str:
    return strength(hole + board)


def _holdem_best_five(hole: Cards, board: Cards) -> Cards:
    return best_five(hole + board)


def _omaha_best_five(hole: Cards, board: Cards) -> Cards:
    hands = [two + three for two in combinations(hole, 2) for three in combinations(board, 3)]
    return max(hands, key=evaluate)  # rule 21: two of the hole cards, three of the board


def _omaha_strength(hole: Cards, board: Cards) -> str:
    if len(board) >= 3:
        return describe(evaluate_omaha(hole, board))
    # before the flop: the best two of the four, as a pair or a high card
    return strength(max(combinations(hole, 2), key=_pair_then_ranks))


def _pair_then_ranks(two: Sequence[int]) -> tuple[bool, int, int]:
    high, low = sorted((card // 4 for card in two), reverse=True)  # a card's rank is card // 4
    return high == low, high, low


@dataclass(frozen=True, slots=True)
class Game:
    """What a game changes in a hand.

    ``value(hole, board)`` ranks a player's best hand on ``evaluate``'s scale
    (higher wins); ``strength(hole, board)`` names what the cards make so far
    ("Pair of Nines", before the flop too); ``best_five(hole, board)`` is the
    five cards of the best hand (three to five board cards). ``is_pot_limit``
    caps every bet and raise at the pot (rule 22 of docs/rules.md).
    """

    code: str
    name: str
    hole_card_count: int
    is_pot_limit: bool
    value: Callable[[Cards, Cards], int]
    strength: Callable[[Cards, Cards], str]
    best_five: Callable[[Cards, Cards], Cards]


GAMES: Final[dict[str, Game]] = {
    NO_LIMIT_HOLDEM: Game(
        NO_LIMIT_HOLDEM,
        "No-Limit Hold'em",
        2,
        False,
        _holdem_value,
        _holdem_strength,
        _holdem_best_five,
    ),
    POT_LIMIT_OMAHA: Game(
        POT_LIMIT_OMAHA,
        "Pot-Limit Omaha",
        4,
        True,
        evaluate_omaha,
        _omaha_strength,
        _omaha_best_five,
    ),
}


def game_named(code: object) -> Game:
    """The game ``code`` names; ``ValueError`` listing the games for anything else."""
    game = GAMES.get(code) if isinstance(code, str) else None
    if game is None:
        names = " or ".join(f"{g.code!r} ({g.name})" for g in GAMES.values())
        raise ValueError(f"{code!r} is not a game: {names}")
    return game

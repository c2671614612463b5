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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from engine.evaluator import evaluate, evaluate_omaha

NO_LIMIT_HOLDEM: Final = "nlhe"
POT_LIMIT_OMAHA: Final = "plo"


def _holdem_value(hole: tuple[int, ...], board: tuple[int, ...]) -> int:
    return evaluate(board + hole)  # any five of the seven (rule 11's showdown)


@dataclass(frozen=True, slots=True)
class Game:
    """What a game changes in a hand.

    ``value(hole, board)`` ranks a player's best hand on ``evaluate``'s scale
    (higher wins); ``is_pot_limit`` caps every bet and raise at the pot
    (rule 22 of docs/rules.md).
    """

    code: str
    name: str
    hole_card_count: int
    is_pot_limit: bool
    value: Callable[[tuple[int, ...], tuple[int, ...]], int]


GAMES: Final[dict[str, Game]] = {
    NO_LIMIT_HOLDEM: Game(NO_LIMIT_HOLDEM, "No-Limit Hold'em", 2, False, _holdem_value),
    POT_LIMIT_OMAHA: Game(POT_LIMIT_OMAHA, "Pot-Limit Omaha", 4, True, evaluate_omaha),
}


def game_named(code: object) -> Game:
    """The game ``code`` names; ``ValueError`` listing the games for anything else."""
    game = GAMES.get(code) if isinstance(code, str) else None
    if game is None:
        names = " or ".join(f"{g.code!r} ({g.name})" for g in GAMES.values())
        raise ValueError(f"{code!r} is not a game: {names}")
    return game

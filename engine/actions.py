"""The four things a player can do, as small value objects.

Actions carry no seat: the actor is whoever ``legal_actions(state).actor``
names. A first bet on a street is a ``RaiseTo`` as well, so every wager is
stated as the street total the player ends up with.

>>> RaiseTo(600)
RaiseTo(amount=600)
"""

from __future__ import annotations

from dataclasses import dataclass


class IllegalAction(ValueError):  # noqa: N818 - the name is part of the public API
    """An action the rules do not allow; the message says why in plain words."""


@dataclass(frozen=True, slots=True)
class Fold:
    """Give up the hand (only when facing a bet; check instead when it is free)."""


@dataclass(frozen=True, slots=True)
class Check:
    """Pass without betting (only when nothing is owed)."""


@dataclass(frozen=True, slots=True)
class Call:
    """Match the current bet, or put in the whole stack when it is smaller."""


@dataclass(frozen=True, slots=True)
class RaiseTo:
    """Bet or raise so that this street's total for the player is ``amount``."""

    amount: int


Action = Fold | Check | Call | RaiseTo

"""The four things a player can do, as small value objects, and their one text form.

Actions carry no seat: the actor is whoever ``legal_actions(state).actor``
names. A first bet on a street is a ``RaiseTo`` as well, so every wager is
stated as the street total the player ends up with.

Each action reads and writes as one short text, the same everywhere (the
table's socket commands, event-log replay, PHH import):

>>> RaiseTo(600)
RaiseTo(amount=600)
>>> str(RaiseTo(600)), str(Check())
('raise 600', 'check')
>>> parse_action("raise 600") == RaiseTo(600)
True
>>> parse_action("Bet 40"), parse_action(" fold ")
(RaiseTo(amount=40), Fold())
"""

from __future__ import annotations

from dataclasses import dataclass


class IllegalAction(ValueError):  # noqa: N818 - the name is part of the public API
    """An action the rules do not allow; the message says why in plain words."""


@dataclass(frozen=True, slots=True)
class Fold:
    """Give up the hand (only when facing a bet; check instead when it is free)."""

    def __str__(self) -> str:
        return "fold"


@dataclass(frozen=True, slots=True)
class Check:
    """Pass without betting (only when nothing is owed)."""

    def __str__(self) -> str:
        return "check"


@dataclass(frozen=True, slots=True)
class Call:
    """Match the current bet, or put in the whole stack when it is smaller."""

    def __str__(self) -> str:
        return "call"


@dataclass(frozen=True, slots=True)
class RaiseTo:
    """Bet or raise so that this street's total for the player is ``amount``."""

    amount: int

    def __str__(self) -> str:
        return f"raise {self.amount}"


Action = Fold | Check | Call | RaiseTo

_WITHOUT_AMOUNT: dict[str, Action] = {"fold": Fold(), "check": Check(), "call": Call()}


def parse_action(text: str) -> Action:
    """The action ``text`` names: ``fold``, ``check``, ``call``, or ``raise N`` (``bet N``
    is the same: a first bet is a raise from nothing), N being the street total.

    Raises ``ValueError`` saying what is wrong; whether the action is legal is
    ``apply_action``'s question.
    """
    words = text.lower().split()
    if len(words) == 1 and words[0] in _WITHOUT_AMOUNT:
        return _WITHOUT_AMOUNT[words[0]]
    if len(words) == 2 and words[0] in ("raise", "bet"):
        if not words[1].isascii() or not words[1].isdigit():
            raise ValueError(f"{words[1]!r} is not a whole number of chips")
        return RaiseTo(int(words[1]))
    raise ValueError(f"{text!r} is not an action: fold, check, call or raise N")

"""What the player to act may do, and doing it.

``legal_actions`` is the one answer to "what may the actor do"; ``apply_action``
validates against exactly that answer and returns the next state.

Decisions Felt made where the rules leave room:

- ``Call`` with nothing to call, and ``Fold`` when checking is free, are
  illegal (the message says to check); ``Check`` facing a bet is illegal.
- Raising is refused when no other live player could put in more than the
  current bet (everyone else is all-in): only call or fold remain.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import Action, Call, Check, Fold, IllegalAction, RaiseTo
from engine.events import PlayerActed
from engine.state import HandState
from engine.streets import advance


@dataclass(frozen=True, slots=True)
class LegalActions:
    """The options of the player to act.

    ``actor`` is ``None`` when no decision is pending (the hand is over).
    Folding is allowed whenever ``can_check`` is False. ``call_amount`` is
    capped at the actor's stack (a short call is all-in, rule 3).
    ``min_raise_to`` / ``max_raise_to`` are this street's totals for a bet or
    raise, or ``None`` when the actor may not bet or raise; ``min_raise_to``
    equals ``max_raise_to`` when the only raise left is all-in for less than
    a full raise.
    """

    actor: int | None
    can_check: bool
    call_amount: int
    min_raise_to: int | None
    max_raise_to: int | None

    @property
    def can_fold(self) -> bool:
        """Folding makes sense only when facing a bet."""
        return self.actor is not None and not self.can_check

    @property
    def can_raise(self) -> bool:
        """True when a bet or raise (``RaiseTo``) is allowed."""
        return self.min_raise_to is not None


_NO_DECISION = LegalActions(None, False, 0, None, None)

NOT_REOPENED = "the all-in was less than a full raise, so you can only call or fold"


def raise_refusal(state: HandState, seat: int) -> str | None:
    """Why ``seat`` may not bet or raise now, or ``None`` when it may."""
    bets, stacks, cur = state.bets, state.stacks, state.current_bet
    if stacks[seat] + bets[seat] <= cur:
        return "calling already puts you all-in"  # rule 3
    acted_at = state.acted_at[seat]
    if acted_at >= 0 and cur - acted_at < state.min_raise_increment:
        # rules 4 and 5: only a full raise (alone or summed) reopens the betting
        return NOT_REOPENED
    folded = state.has_folded
    for other in state.players:
        if other != seat and not folded[other] and stacks[other] + bets[other] > cur:
            return None
    return "everyone else is all-in: you can only call or fold"


def legal_actions(state: HandState) -> LegalActions:
    """The actor and what they may do (rules 1-6)."""
    seat = state.actor
    if seat is None:
        return _NO_DECISION
    bet, stack, cur = state.bets[seat], state.stacks[seat], state.current_bet
    can_check = bet >= cur
    call_amount = 0 if can_check else min(cur - bet, stack)
    if raise_refusal(state, seat) is not None:
        return LegalActions(seat, can_check, call_amount, None, None)
    all_in_to = stack + bet
    # rules 1, 2 and 6: a full raise adds at least the largest bet or raise of
    # the street (the big blind when nobody bet); all-in for less is allowed
    minimum = min(cur + state.min_raise_increment, all_in_to)
    return LegalActions(seat, can_check, call_amount, minimum, all_in_to)


def apply_action(state: HandState, action: Action) -> HandState:
    """The state after the actor takes ``action``; raises ``IllegalAction`` if not allowed."""
    seat = state.actor
    if seat is None:
        raise IllegalAction("the hand is over")
    if isinstance(action, RaiseTo):
        _check_raise(state, seat, legal_actions(state), action.amount)
        return advance(state, seat, _put_in(state, seat, action.amount))
    if not isinstance(action, (Check, Fold, Call)):  # noqa: UP038 - a tuple is faster
        raise IllegalAction(f"{action!r} is not an action: use Fold, Check, Call or RaiseTo")
    # the cheap part of legal_actions: checking, calling and folding
    bet, cur = state.bets[seat], state.current_bet
    call_amount = 0 if bet >= cur else min(cur - bet, state.stacks[seat])
    if isinstance(action, Check) != (bet >= cur):
        raise IllegalAction(_check_message(action, call_amount))
    if isinstance(action, Fold):
        return advance(state, seat, _fold(state, seat), has_folded=True)
    return advance(state, seat, _put_in(state, seat, bet + call_amount))


def _check_message(action: Action, call_amount: int) -> str:
    if isinstance(action, Check):
        return f"you cannot check: it costs {call_amount} to call"
    if isinstance(action, Fold):
        return "there is nothing to call: check instead of folding"
    return "there is nothing to call: check or bet instead"


def _check_raise(state: HandState, seat: int, legal: LegalActions, amount: object) -> None:
    if type(amount) is not int:
        raise IllegalAction(f"raise to {amount!r} is not a whole number of chips")
    verb = "bet of" if state.current_bet == 0 else "raise to"
    if legal.min_raise_to is None or legal.max_raise_to is None:
        raise IllegalAction(f"you cannot {verb.split()[0]}: {raise_refusal(state, seat)}")
    if amount > legal.max_raise_to:
        raise IllegalAction(
            f"{verb} {amount} is more than you have: the most is {legal.max_raise_to}"
        )
    if amount < legal.min_raise_to:
        raise IllegalAction(f"{verb} {amount} is below the minimum {verb} {legal.min_raise_to}")


def _fold(state: HandState, seat: int) -> dict[str, Any]:
    folded = list(state.has_folded)
    folded[seat] = True
    event = PlayerActed(seat, state.street, "fold", 0, state.bets[seat], False)
    return {"has_folded": tuple(folded), "events": (*state.events, event)}


def _put_in(state: HandState, seat: int, total: int) -> dict[str, Any]:
    """Bring ``seat``'s street bet to ``total``: a check, call, bet or raise."""
    added = total - state.bets[seat]
    cur = state.current_bet
    stacks = list(state.stacks)
    bets = list(state.bets)
    contributed = list(state.contributed)
    stacks[seat] -= added
    bets[seat] = total
    contributed[seat] += added
    increment = state.min_raise_increment
    aggressor = state.last_aggressor
    if total > cur:
        kind = "bet" if cur == 0 else "raise"
        increment = max(increment, total - cur)  # rule 2: a full raise sets the new minimum
        aggressor = seat
    else:
        kind = "call" if added else "check"
    acted_at = list(state.acted_at)
    acted_at[seat] = max(total, cur)
    event = PlayerActed(seat, state.street, kind, added, total, stacks[seat] == 0)
    return {
        "stacks": tuple(stacks),
        "bets": tuple(bets),
        "contributed": tuple(contributed),
        "acted_at": tuple(acted_at),
        "current_bet": max(total, cur),
        "min_raise_increment": increment,
        "last_aggressor": aggressor,
        "events": (*state.events, event),
    }

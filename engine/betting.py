"""What the player to act may do, and doing it.

``legal_actions`` is the one answer to "what may the actor do"; ``apply_action``
validates against exactly that answer and returns the next state.

Decisions Felt made where the rules leave room:

- ``Call`` with nothing to call, and ``Fold`` when checking is free, are
  illegal (the message says to check); ``Check`` facing a bet is illegal.
- Raising is refused when no other live player could put in more than the
  current bet (everyone else is all-in): only call or fold remain.

>>> from engine.cards import DECK
>>> from engine.deal import new_hand
>>> hand = new_hand([100, 100, 100], button=0, small_blind=1, big_blind=2, deck=DECK)
>>> legal_actions(hand)
LegalActions(actor=0, can_check=False, call_amount=2, min_raise_to=4, max_raise_to=100)
>>> after = apply_action(hand, RaiseTo(6))
>>> after.actor, after.bets
(1, (6, 1, 2))
>>> apply_action(after, RaiseTo(7))
Traceback (most recent call last):
  ...
engine.actions.IllegalAction: raise to 7 is below the minimum raise to 10
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Action, Call, Check, Fold, IllegalAction, RaiseTo
from engine.construction import new_instance, slot_setters
from engine.events import player_acted
from engine.games import GAMES
from engine.state import HandState, from_fields
from engine.streets import after_fold, close_street, next_actor


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
_LEGAL_FIELDS = slot_setters(LegalActions)


NOT_REOPENED = "the all-in was less than a full raise, so you can only call or fold (rule 4)"


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


_POT_LIMIT_GAMES = frozenset([code for code, game in GAMES.items() if game.is_pot_limit])


def pot_limit(state: HandState, seat: int) -> int:
    """The largest street total ``seat`` may bet or raise to in a pot-limit game
    (rule 22): the current bet, plus the whole pot once ``seat`` has called it,
    every bet on the table included."""
    cur = state.current_bet
    return cur + sum(state.contributed) + cur - state.bets[seat]


def legal_actions(state: HandState) -> LegalActions:
    """The actor and what they may do (rules 1-6, and 22 in a pot-limit game)."""
    seat = state.actor
    if seat is None:
        return _NO_DECISION
    bet, stack, cur = state.bets[seat], state.stacks[seat], state.current_bet
    can_check = bet >= cur
    if raise_refusal(state, seat) is None:
        max_raise_to: int | None = stack + bet
        # rules 1, 2 and 6: a full raise adds at least the largest bet or raise
        # of the street (the big blind when nobody bet); all-in for less is allowed
        min_raise_to = min(cur + state.min_raise_increment, stack + bet)
        if state.game in _POT_LIMIT_GAMES:
            # a pot smaller than a full raise still allows the full raise
            max_raise_to = min(stack + bet, max(min_raise_to, pot_limit(state, seat)))
    else:
        max_raise_to = min_raise_to = None
    # LegalActions(...) without the frozen dataclass __init__: see engine.construction
    legal = new_instance(LegalActions)
    set_actor, set_can_check, set_call_amount, set_min, set_max = _LEGAL_FIELDS
    set_actor(legal, seat)
    set_can_check(legal, can_check)
    set_call_amount(legal, 0 if can_check else min(cur - bet, stack))
    set_min(legal, min_raise_to)
    set_max(legal, max_raise_to)
    return legal


def apply_action(state: HandState, action: Action) -> HandState:
    """The state after the actor takes ``action``; raises ``IllegalAction`` if not allowed."""
    seat = state.actor
    if seat is None:
        if state.runout_pending:
            raise IllegalAction("the betting is over: the players are choosing the run-outs")
        raise IllegalAction("the hand is over")
    # the cheap part of legal_actions first: calling, checking and folding
    bet, cur = state.bets[seat], state.current_bet
    if isinstance(action, Call):
        if bet >= cur:
            raise IllegalAction("there is nothing to call: check or bet instead")
        return _put_in(state, seat, min(cur, bet + state.stacks[seat]))  # rule 3: short calls
    if isinstance(action, Check):
        if bet < cur:
            owed = min(cur - bet, state.stacks[seat])
            raise IllegalAction(f"you cannot check: it costs {owed} to call")
        return _put_in(state, seat, bet)
    if isinstance(action, Fold):
        if bet >= cur:
            raise IllegalAction("there is nothing to call: check instead of folding")
        return _fold(state, seat)
    if isinstance(action, RaiseTo):
        _check_raise(state, seat, legal_actions(state), action.amount)
        return _put_in(state, seat, action.amount)
    raise IllegalAction(f"{action!r} is not an action: use Fold, Check, Call or RaiseTo")


def _check_raise(state: HandState, seat: int, legal: LegalActions, amount: object) -> None:
    if type(amount) is not int:
        raise IllegalAction(f"raise to {amount!r} is not a whole number of chips")
    verb = "bet of" if state.current_bet == 0 else "raise to"
    if legal.min_raise_to is None or legal.max_raise_to is None:
        raise IllegalAction(f"you cannot {verb.split()[0]}: {raise_refusal(state, seat)}")
    if amount > legal.max_raise_to:
        if legal.max_raise_to < state.stacks[seat] + state.bets[seat]:
            raise IllegalAction(
                f"{verb} {amount} is more than the pot limit: the most is {legal.max_raise_to}"
            )
        raise IllegalAction(
            f"{verb} {amount} is more than you have: the most is {legal.max_raise_to}"
        )
    if amount < legal.min_raise_to:
        raise IllegalAction(f"{verb} {amount} is below the minimum {verb} {legal.min_raise_to}")


# The two builders below copy the state's fields into a fresh dict, change the
# few that move, and pass the turn on the new state: this is the hot path of
# every decision, so it avoids ``evolve``'s keyword arguments.


def _fold(state: HandState, seat: int) -> HandState:
    fields = state.__dict__.copy()
    folded = list(state.has_folded)
    folded[seat] = True
    fields["has_folded"] = tuple(folded)
    event = player_acted(seat, state.street, "fold", 0, state.bets[seat], False)
    fields["events"] = state.events + (event,)
    return after_fold(from_fields(fields), seat)


def _put_in(state: HandState, seat: int, total: int) -> HandState:
    """Bring ``seat``'s street bet to ``total``: a check, call, bet or raise."""
    fields = state.__dict__.copy()
    cur = state.current_bet
    added = total - state.bets[seat]
    stack = state.stacks[seat] - added
    if added:  # a check leaves the chips alone
        stacks = list(state.stacks)
        stacks[seat] = stack
        bets = list(state.bets)
        bets[seat] = total
        contributed = list(state.contributed)
        contributed[seat] += added
        fields["stacks"] = tuple(stacks)
        fields["bets"] = tuple(bets)
        fields["contributed"] = tuple(contributed)
    acted_at = list(state.acted_at)
    if total > cur:
        kind = "bet" if cur == 0 else "raise"
        if total - cur > state.min_raise_increment:
            fields["min_raise_increment"] = total - cur  # rule 2: a full raise sets the minimum
        fields["current_bet"] = total
        fields["last_aggressor"] = seat
        acted_at[seat] = total
    else:
        kind = "call" if added else "check"
        acted_at[seat] = cur
    fields["acted_at"] = tuple(acted_at)
    event = player_acted(seat, state.street, kind, added, total, stack == 0)
    fields["events"] = state.events + (event,)
    new = from_fields(fields)
    actor = next_actor(new, seat)  # streets.pass_turn, inlined: this runs for every decision
    if actor is None:
        return close_street(new)
    fields["actor"] = actor  # ``fields`` is the new state's own: nobody else holds it yet
    return new

"""Playing a PHH file's ``actions`` through the engine, one entry at a time.

Every entry is checked against the state it applies to before anything is
applied, so a file is either a hand the engine could have played, or refused:

- a decision (``f``, ``cc``, ``cbr``) must name the player the engine asks
  (``legal_actions(state).actor``), on a street the file has already dealt,
  and never after the hand is over;
- the dealer's lines come where dealing is due: each player's hole cards once,
  before any decision or board card; a board card only once the engine has
  closed the betting before it;
- a show or a muck (``sm``) only after a showdown, once, from a player still in.

The exceptions are the checks other engines write where Felt asks nothing:
the check of a player nobody could answer any more (see ``_is_idle_check``)
and the checks before a bomb pot's flop, where Felt has no preflop betting
(rule 24) and PokerKit has every player with chips check in turn from p1
(``_bomb_pot_preflop_check``). A hand that offers two run-outs (a file with
``_runouts = 2``) takes them as soon as the engine asks (rule 25). A refusal
is a :class:`PhhError` whose ``action_index`` counts the ``actions`` array
from 0, blank and comment-only entries included.

>>> from engine.formats.phh import from_phh
>>> from_phh('''variant = "NT"
... antes = [0, 0, 0]
... blinds_or_straddles = [10, 20, 0]
... min_bet = 20
... starting_stacks = [1000, 1000, 1000]
... actions = ["p3 cc", "p2 cc"]''')
Traceback (most recent call last):
  ...
engine.formats.phh_notation.PhhError: actions[1] 'p2 cc': it is not p2's turn: p1 is to act
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.actions import Action, IllegalAction, parse_action
from engine.betting import apply_action, legal_actions
from engine.events import AntePosted, BlindPosted, Event, PlayerActed, PotAwarded
from engine.formats.phh_notation import PhhAction, PhhError
from engine.state import HandState
from engine.streets import choose_runouts

_BOARD_SIZES: Final = (3, 1, 1)


class PhhIllegalAction(PhhError, IllegalAction):
    """An action in a PHH file that the rules do not allow at that point."""


class PhhReplay:
    """Applies a file's actions one by one to ``state``, refusing any out of place."""

    def __init__(self, state: HandState, seats: tuple[int, ...]) -> None:
        self.state = _run_twice_when_asked(state)
        self.seats = seats  # the seat of each PHH player, p1 first
        self.board_named = 0
        self.streets_named = 0
        self.board_at_last_decision = 0
        # by seat: the board cards named at its last decision (the street it last acted on)
        self.board_at_decision_of: dict[int, int] = {}
        self.players_acted = False
        self.dealt: set[int] = set()
        self.revealed: set[int] = set()
        self.idle_checked: set[int] = set()
        # a bomb pot's players with chips, who some writers have check before the flop
        self.bomb_pot_checkers = [seat for seat in seats if state.bomb_pot and state.stacks[seat]]
        self.bomb_pot_checked = 0

    def apply(self, action: PhhAction) -> None:
        """Check ``action`` against the state so far, then play it; raises :class:`PhhError`."""
        if action.verb == "dh":
            self._deal_hole(action)
        elif action.verb == "db":
            self._deal_board(action)
        elif action.verb in ("sm", "sm-"):
            self._show_or_muck(action)
        else:
            self._decide(action)

    def error(self, action: PhhAction, reason: str) -> PhhError:
        return PhhError(reason + self._short_blind_note(), action.index, action.text)

    def _short_blind_note(self) -> str:
        """Where the big blind was posted short, the likely cause of a refusal: Felt
        makes everyone owe the full big blind (rule 9), some engines only what was
        posted, so the file's later calls and bets no longer fit."""
        state = self.state
        big_blind_stack = state.starting_stacks[state.big_blind_seat] or 0
        if big_blind_stack >= state.ante + state.big_blind:
            return ""
        return (
            "; the big blind was posted short, and Felt still makes everyone owe the full"
            " big blind (rule 9)"
        )

    def _deal_hole(self, action: PhhAction) -> None:
        assert action.actor is not None
        if self.players_acted or self.board_named:
            raise self.error(action, "hole cards are dealt before anyone acts or any board card")
        if action.actor in self.dealt:
            raise self.error(action, f"p{action.actor + 1}'s hole cards were already dealt")
        self.dealt.add(action.actor)

    def _deal_board(self, action: PhhAction) -> None:
        # At most three deals reach here: more cards than five were refused up front.
        size = _BOARD_SIZES[self.streets_named]
        if len(action.cards) != size:
            raise self.error(action, f"this street deals {size} board card(s)")
        if 0 < self.bomb_pot_checked < len(self.bomb_pot_checkers):
            raise self.error(action, self._bomb_pot_preflop_rule())
        if len(self.state.board) < self.board_named + size:
            if self.state.is_over:
                raise self.error(action, "the hand ended before this street")
            raise self.error(action, f"betting is still open: {self._whose_turn()}")
        self.board_named += size
        self.streets_named += 1

    def _show_or_muck(self, action: PhhAction) -> None:
        assert action.actor is not None
        player = f"p{action.actor + 1}"
        seat = self.seats[action.actor]
        state = self.state
        if not state.is_over:
            raise self.error(action, "cards are shown or mucked only at showdown")
        if _live_count(state) < 2:
            raise self.error(action, "the hand was won without a showdown: nobody shows (rule 15)")
        if not state.is_live(seat):
            raise self.error(action, f"{player} folded: only players still in show or muck")
        if action.actor in self.revealed:
            raise self.error(action, f"{player} has already shown or mucked")
        if action.verb == "sm" and not action.cards and _wins_showdown(state.events, seat):
            raise self.error(action, "a winning hand is always shown (rule 15)")
        self.revealed.add(action.actor)

    def _decide(self, action: PhhAction) -> None:
        assert action.actor is not None
        self.players_acted = True
        seat = self.seats[action.actor]
        if action.verb == "cc" and self._is_idle_check(seat):
            self.idle_checked.add(seat)
            return  # nothing to apply: Felt had no decision to ask of this player
        state = self.state
        if state.bomb_pot and not self.board_named and not state.is_over:
            self._bomb_pot_preflop_check(action, seat)
            return  # nothing to apply: a bomb pot starts on the flop (rule 24)
        if state.is_over:
            raise self.error(action, "the hand is already over")
        if len(state.board) > self.board_named:
            street = state.street
            raise self.error(action, f"the {street} is not dealt yet: 'd db' comes first")
        legal = legal_actions(state)
        if legal.actor != seat:
            raise self.error(action, f"it is not p{action.actor + 1}'s turn: {self._whose_turn()}")
        self.board_at_last_decision = self.board_at_decision_of[seat] = self.board_named
        try:
            state = apply_action(state, _engine_action(action, legal.can_check))
        except IllegalAction as error:
            reason = str(error) + self._short_blind_note() + _straddle_note(state, action)
            raise PhhIllegalAction(reason, action.index, action.text) from None
        self.state = _run_twice_when_asked(state)

    def _bomb_pot_preflop_check(self, action: PhhAction, seat: int) -> None:
        """Accept the next of the checks PokerKit writes before a bomb pot's flop, one
        from each player with chips in turn from p1; refuse anything else there."""
        checkers, done = self.bomb_pot_checkers, self.bomb_pot_checked
        if action.verb != "cc" or done == len(checkers) or checkers[done] != seat:
            raise self.error(action, self._bomb_pot_preflop_rule())
        self.bomb_pot_checked += 1

    def _bomb_pot_preflop_rule(self) -> str:
        checkers, done = self.bomb_pot_checkers, self.bomb_pot_checked
        waiting = (
            f"p{self.seats.index(checkers[done]) + 1} is to check"
            if done < len(checkers)
            else "every player has checked: 'd db' comes first"
        )
        return (
            "nobody bets before the flop of a bomb pot (rule 24); the file may only have every"
            f" player with chips check there, in turn from p1, and {waiting}"
        )

    def _is_idle_check(self, seat: int) -> bool:
        """A check other engines (PokerKit among them) ask of a player Felt asks nothing.

        Felt closes the betting, runs the board out and ends the hand as soon as
        one player with chips is left among players all-in: the big blind after
        everyone else folded to a short all-in, or a small blind covering an
        all-in big blind (rule 9). Such an engine still asks that one player to
        check, on the street where the betting closed, when they have not acted
        on it: a player whose own call or bet closed the betting is asked nothing
        more, so their check after it is a decision after the hand is over. Only
        that check, once, is accepted and changes nothing.
        """
        state = self.state
        if (
            not state.is_over
            or seat in self.idle_checked
            or self.board_named != self.board_at_last_decision
            or self.board_at_decision_of.get(seat) == self.board_named
            or not state.is_live(seat)
            or _live_count(state) < 2
        ):
            return False
        all_in = _seats_gone_all_in(state.events)
        return seat not in all_in and all(
            other in all_in for other in state.players if other != seat and state.is_live(other)
        )

    def _whose_turn(self) -> str:
        actor = self.state.actor  # called only while the hand is on: someone is to act
        assert actor is not None
        return f"p{self.seats.index(actor) + 1} is to act"


def _straddle_note(state: HandState, action: PhhAction) -> str:
    """Where a raise over a straddle is too small, the likely cause: Felt's smallest
    raise adds the straddle (rule 23), some engines' (PokerKit's) one big blind."""
    if action.verb != "cbr" or state.straddle_seat is None or state.street != "preflop":
        return ""
    minimum = legal_actions(state).min_raise_to
    if minimum is None or (action.amount or 0) >= minimum:
        return ""
    return "; over a straddle Felt's smallest raise adds the straddle (rule 23)"


def _run_twice_when_asked(state: HandState) -> HandState:
    """A hand that offers two run-outs (only a file with ``_runouts = 2`` is dealt
    so) runs the board twice when the engine asks (rule 25)."""
    return choose_runouts(state, 2) if state.runout_pending else state


def _engine_action(action: PhhAction, can_check: bool) -> Action:
    """PHH's verbs in the engine's text form: ``cc`` checks when that is free."""
    if action.verb == "f":
        return parse_action("fold")
    if action.verb == "cc":
        return parse_action("check" if can_check else "call")
    return parse_action(f"raise {action.amount}")


def _live_count(state: HandState) -> int:
    return sum(1 for seat in state.players if state.is_live(seat))


def _seats_gone_all_in(events: Iterable[Event]) -> set[int]:
    return {
        event.seat
        for event in events
        if isinstance(event, AntePosted | BlindPosted | PlayerActed) and event.is_all_in
    }


def _wins_showdown(events: Iterable[Event], seat: int) -> bool:
    return any(
        isinstance(event, PotAwarded)
        and event.description is not None
        and any(s == seat for s, _ in event.shares)
        for event in events
    )

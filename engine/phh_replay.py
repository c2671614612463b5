"""Playing a PHH file's ``actions`` through the engine, one entry at a time.

:func:`engine.phh.from_phh` reads the file and sets the hand up; this plays
each entry against the state so far and refuses one the hand cannot take,
as a :class:`PhhError` naming the entry's index in ``actions`` and its text.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.actions import Action, IllegalAction, parse_action
from engine.betting import apply_action, legal_actions
from engine.events import Event, PotAwarded
from engine.phh_notation import PhhAction, PhhError
from engine.state import HandState
from engine.streets import covers_all_in_opponents

_BOARD_SIZES: Final = (3, 1, 1)


class PhhIllegalAction(PhhError, IllegalAction):
    """An action in a PHH file that the rules do not allow at that point."""


class PhhReplay:
    """Applies a file's actions one by one to ``state``."""

    def __init__(self, state: HandState, seats: tuple[int, ...]) -> None:
        self.state = state
        self.seats = seats
        self.board_named = 0
        self.streets_named = 0
        self.players_acted = False

    def apply(self, action: PhhAction) -> None:
        if action.verb == "dh":
            if self.players_acted:
                raise self.error(action, "hole cards are dealt before anyone acts")
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

    def _deal_board(self, action: PhhAction) -> None:
        # At most three deals reach here: more cards than five were refused up front.
        size = _BOARD_SIZES[self.streets_named]
        if len(action.cards) != size:
            raise self.error(action, f"this street deals {size} board card(s)")
        if len(self.state.board) < self.board_named + size:
            if self.state.is_over:
                raise self.error(action, "the hand ended before this street")
            raise self.error(action, f"betting is still open: {self._whose_turn()}")
        self.board_named += size
        self.streets_named += 1

    def _show_or_muck(self, action: PhhAction) -> None:
        assert action.actor is not None
        seat = self.seats[action.actor]
        state = self.state
        if not state.is_over:
            raise self.error(action, "cards are shown or mucked only at showdown")
        if action.verb == "sm" and not action.cards and _wins_showdown(state.events, seat):
            raise self.error(action, "a winning hand is always shown (rule 15)")

    def _decide(self, action: PhhAction) -> None:
        assert action.actor is not None
        self.players_acted = True
        seat = self.seats[action.actor]
        if action.verb == "cc" and self._is_idle_check(seat):
            return  # nothing to apply: Felt had no decision to ask of this player
        if self.state.is_over:
            raise self.error(action, "the hand is already over")
        legal = legal_actions(self.state)
        if legal.actor != seat:
            raise self.error(action, f"it is not p{action.actor + 1}'s turn: {self._whose_turn()}")
        try:
            self.state = apply_action(self.state, _engine_action(action, legal.can_check))
        except IllegalAction as error:
            reason = str(error) + self._short_blind_note()
            raise PhhIllegalAction(reason, action.index, action.text) from None

    def _is_idle_check(self, seat: int) -> bool:
        """A check for a live player of whom Felt asks nothing, which puts in nothing.

        Other engines (PokerKit among them) write one for a player nobody could
        answer any more, e.g. the big blind after everyone else folded to a short
        all-in, or a small blind already covering an all-in big blind (rule 9).
        """
        state = self.state
        return (
            state.actor != seat
            and state.is_live(seat)
            and (
                state.is_over
                or state.bets[seat] >= state.current_bet
                or covers_all_in_opponents(state, seat)
            )
        )

    def _whose_turn(self) -> str:
        actor = self.state.actor  # called only while the hand is on: someone is to act
        assert actor is not None
        return f"p{self.seats.index(actor) + 1} is to act"


def _engine_action(action: PhhAction, can_check: bool) -> Action:
    """PHH's verbs in the engine's text form: ``cc`` checks when that is free."""
    if action.verb == "f":
        return parse_action("fold")
    if action.verb == "cc":
        return parse_action("check" if can_check else "call")
    return parse_action(f"raise {action.amount}")


def _wins_showdown(events: Iterable[Event], seat: int) -> bool:
    return any(
        isinstance(event, PotAwarded)
        and event.description is not None
        and any(s == seat for s, _ in event.shares)
        for event in events
    )

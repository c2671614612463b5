"""Helpers for engine tests: hands with chosen cards and short action scripts."""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action, Call, Check, Fold, RaiseTo
from engine.betting import apply_action
from engine.cards import DECK, cards
from engine.deal import new_hand
from engine.games import GAMES, NO_LIMIT_HOLDEM
from engine.state import HandState


def awkward_stacks(small_blind: int, big_blind: int, ante: int) -> list[int]:
    """Stacks where the forced-bet rules bite (rules 9 and 10): below the ante, below
    the small blind, between the blinds, or exactly a blind or the ante plus a blind."""
    below = [
        *range(1, ante),  # all-in on the ante
        *(ante + chips for chips in range(1, small_blind)),  # all-in on the small blind
        *(ante + chips for chips in range(small_blind + 1, big_blind)),  # between the blinds
    ]
    exact = [ante, small_blind, big_blind, ante + small_blind, ante + big_blind]
    return sorted({chips for chips in below + exact if chips > 0})


def stacked_deck(
    stacks: Sequence[int | None],
    button: int,
    holes: dict[int, str],
    board: str = "",
    hole_count: int = 2,
) -> tuple[int, ...]:
    """A deck that deals ``holes`` (seat -> "AsKd", or four cards each when
    ``hole_count`` is 4) and then ``board``; the rest in order."""
    count = len(stacks)
    order = [(button + k) % count for k in range(1, count + 1) if stacks[(button + k) % count]]
    chosen = {seat: cards(text) for seat, text in holes.items()}
    board_cards = cards(board)
    used = {c for pair in chosen.values() for c in pair} | set(board_cards)
    spare = iter(c for c in DECK if c not in used)
    dealt = [chosen.get(seat) or tuple(next(spare) for _ in range(hole_count)) for seat in order]
    front = [hole[round_] for round_ in range(hole_count) for hole in dealt]
    runout = list(board_cards) + [next(spare) for _ in range(5 - len(board_cards))]
    return tuple(front + runout + list(spare))


def deal(
    stacks: Sequence[int | None],
    button: int = 0,
    holes: dict[int, str] | None = None,
    board: str = "",
    game: str = NO_LIMIT_HOLDEM,
    **options: int,
) -> HandState:  # options: small_blind, big_blind, ante, small_blind_seat, big_blind_seat
    """``new_hand`` of ``game`` with the given hole cards and board (others arbitrary)."""
    hole_count = GAMES[game].hole_card_count
    deck = stacked_deck(stacks, button, holes or {}, board, hole_count)
    return new_hand(stacks, button, deck=deck, game=game, **options)  # type: ignore[arg-type]


def play(state: HandState, *script: str | int) -> HandState:
    """Apply actions: "f" fold, "x" check, "c" call, an int raises (or bets) to it."""
    for step in script:
        state = apply_action(state, as_action(step))
    return state


def as_action(step: str | int) -> Action:
    if isinstance(step, int):
        return RaiseTo(step)
    actions: dict[str, Action] = {"f": Fold(), "x": Check(), "c": Call()}
    return actions[step]


def offered_actions(state: HandState, between: int = 0) -> list[Action]:
    """Every kind of action ``legal_actions`` allows (a raise between min and max
    at ``between`` permille of the range)."""
    from engine.betting import legal_actions

    legal = legal_actions(state)
    options: list[Action] = [Check() if legal.can_check else Call()]
    if legal.can_fold:
        options.append(Fold())
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        low, high = legal.min_raise_to, legal.max_raise_to
        options += [RaiseTo(low), RaiseTo(high), RaiseTo(low + (high - low) * between // 1000)]
    return options

"""The end of a hand: who shows first, who shows or mucks, who wins each pot.

Felt decides show or muck for the players (rule 15): in showdown order, a
player shows when their hand wins or ties at least one contested pot they
are in against the hands already shown; otherwise they muck. Winning hands
are therefore always shown; a hand that wins uncontested is never shown.
Hands turned face up for an all-in run-out (rule 14, see ``streets``) stay
shown. At a showdown where any live player is all-in, every live hand is
tabled (rule 14, the TDA's "face up for all-ins"): nobody may muck there.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from engine.evaluator import describe
from engine.events import CardsMucked, CardsShown, Event, HandEnded, PotAwarded
from engine.games import GAMES
from engine.pots import Pot, build_pots, split_pot
from engine.state import OVER, HandState, evolve


def showdown_order(state: HandState) -> tuple[int, ...]:
    """Live seats in the order they show (rule 13).

    The last player to bet or raise on the final betting street shows first;
    if nobody bet, the first live player left of the button. Then clockwise.
    """
    folded = state.has_folded
    live = tuple([seat for seat in state.players if not folded[seat]])
    aggressor = state.last_aggressor
    if aggressor is not None and not folded[aggressor]:
        start = live.index(aggressor)
    else:
        start = bisect_right(live, state.button) % len(live)
    return live[start:] + live[:start]


def _final_pots(state: HandState) -> tuple[Pot, ...]:
    live = [d and not f for d, f in zip(state.is_dealt_in, state.has_folded, strict=True)]
    return build_pots(state.contributed, live, state.stacks)


def award_uncontested(state: HandState, winner: int) -> HandState:
    """Everyone else folded: the winner takes every pot without showing (rule 15)."""
    awards = [
        PotAwarded(index, pot.amount, pot.eligible, ((winner, pot.amount),), None)
        for index, pot in enumerate(_final_pots(state))
    ]
    return _finish(state, [], awards)


def showdown(state: HandState) -> HandState:
    """Show or muck in order, then award each pot on its own (rules 11-13, 15),
    half of it on each board when the hand was run twice (rule 25)."""
    board, holes = state.board, state.holes
    value_of = GAMES[state.game].value  # rule 21: Omaha plays two hole cards, three of the board
    order = showdown_order(state)
    values = {s: value_of(holes[s], board) for s in order}
    pots = _final_pots(state)
    contested = [pot for pot in pots if len(pot.eligible) >= 2]
    best_shown = [-1] * len(contested)  # hand values are positive
    # rule 14: once a player is all-in and the action is complete, all hands are tabled
    stacks = state.stacks
    everyone_shows = any([stacks[seat] == 0 for seat in values])
    shown = list(state.has_shown)
    events: list[Event] = []
    for seat, value in values.items():
        wins_or_ties = False
        for index, pot in enumerate(contested):
            if seat in pot.eligible and value >= best_shown[index]:
                best_shown[index] = value
                wins_or_ties = True
        if shown[seat]:
            continue
        if wins_or_ties or everyone_shows:
            shown[seat] = True
            events.append(CardsShown(seat, holes[seat]))
        else:
            events.append(CardsMucked(seat, holes[seat]))
    if state.second_board:
        second = {s: value_of(holes[s], state.second_board) for s in order}
        awards = []
        for index, pot in enumerate(pots):
            # rule 25: the first board's half takes an odd chip. Every pot holds two
            # chips at least (the two top stakes reach every layer), so neither half is empty
            half = pot.amount // 2
            awards.append(_award(state, index, pot, pot.amount - half, values, 0))
            awards.append(_award(state, index, pot, half, second, 1))
    else:
        awards = [
            _award(state, index, pot, pot.amount, values, 0) for index, pot in enumerate(pots)
        ]
    return _finish(state, events, awards, has_shown=tuple(shown))


def _award(
    state: HandState, index: int, pot: Pot, amount: int, values: dict[int, int], run: int
) -> PotAwarded:
    if len(pot.eligible) == 1:
        return PotAwarded(index, amount, pot.eligible, ((pot.eligible[0], amount),), None, run)
    best = max([values[s] for s in pot.eligible])
    winners = [s for s in pot.eligible if values[s] == best]
    shares = split_pot(amount, winners, state.button, state.seat_count)  # rule 12
    return PotAwarded(index, amount, pot.eligible, shares, describe(best), run)


def _finish(
    state: HandState, shown: list[Event], awards: list[PotAwarded], **changes: Any
) -> HandState:
    """Log the hands shown or mucked, pay out ``awards`` and end the hand."""
    stacks = list(state.stacks)
    for award in awards:
        for seat, chips in award.shares:
            stacks[seat] += chips
    changes["stacks"] = final = tuple(stacks)
    changes["events"] = (*state.events, *shown, *awards, HandEnded(final))
    return evolve(state, bets=(0,) * state.seat_count, street=OVER, actor=None, **changes)

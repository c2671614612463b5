"""Moving a hand along: whose turn it is, closing a street, dealing the board.

``betting.apply_action`` records a decision and then passes the turn
(``pass_turn``, ``after_fold``); everything that happens without a decision
(uncalled bets returned, streets dealt, the all-in run-out, the showdown)
happens here.
"""

from __future__ import annotations

from bisect import bisect_right

from engine.actions import IllegalAction
from engine.construction import write_fresh
from engine.events import BoardDealt, CardsShown, Event, RunoutsChosen, UncalledBetReturned
from engine.showdown import award_uncontested, showdown, showdown_order
from engine.state import STREETS, HandState, evolve

_BOARD_SIZE = {"flop": 3, "turn": 1, "river": 1}


def able_to_act_count(state: HandState) -> int:
    """Live players with chips behind: those who can still bet."""
    stacks, folded = state.stacks, state.has_folded
    able = 0
    for seat in state.players:
        if stacks[seat] and not folded[seat]:
            able += 1
    return able


def next_actor(state: HandState, after: int) -> int | None:
    """The next seat clockwise from ``after`` that owes a decision, if any.

    A seat owes one when it is live with chips and either faces a bet, or has
    not acted on this street while someone else could still answer a bet.
    """
    stacks, folded, bets, acted_at = state.stacks, state.has_folded, state.bets, state.acted_at
    current_bet = state.current_bet
    players = state.players
    start = bisect_right(players, after)
    able = 0  # live seats with chips seen so far
    waiting = None  # the first of them that has not acted on this street
    for seat in players[start:] + players[:start]:
        if not stacks[seat] or folded[seat]:
            continue
        able += 1
        if waiting is None:
            # Someone's bet is the current bet in every hand but a short big blind's,
            # and only that case can leave nothing to decide (rule 9's exception).
            if bets[seat] < current_bet and (
                current_bet in bets or not covers_all_in_opponents(state, seat)
            ):
                return seat
            if acted_at[seat] < 0:
                waiting = seat
        if waiting is not None and able >= 2:
            return waiting  # someone else could still answer a bet from ``waiting``
    return None


def covers_all_in_opponents(state: HandState, seat: int) -> bool:
    """Rule 9's exception: every opponent left is all-in for no more than ``seat``
    has put in, so nobody could match another chip and ``seat`` has nothing to
    decide (only a short big blind, owed in full, makes ``seat`` face a bet then)."""
    stacks, folded, contributed = state.stacks, state.has_folded, state.contributed
    mine = contributed[seat]
    for other in state.players:
        if other != seat and not folded[other] and (stacks[other] or contributed[other] > mine):
            return False
    return True


def start_preflop(state: HandState) -> HandState:
    """The first decision before the flop belongs to the seat left of the big blind,
    or of the straddle (rule 23); a bomb pot goes straight to the flop (rule 24).

    ``state`` is the hand ``new_hand`` has just built, which nobody else holds yet.
    """
    if state.bomb_pot:
        return close_street(state)
    straddle = state.straddle_seat
    return pass_turn(state, state.big_blind_seat if straddle is None else straddle)


def pass_turn(state: HandState, seat: int) -> HandState:
    """After ``seat``'s turn, give the turn to the next seat that owes a decision,
    or close the street when none does.

    ``state`` is the one the decision has just built, which nobody else holds
    yet: the turn is passed by setting its ``actor``.
    """
    actor = next_actor(state, seat)
    if actor is None:
        return close_street(state)
    write_fresh(state, "actor", actor)
    return state


def after_fold(state: HandState, seat: int) -> HandState:
    """``seat`` has just folded: the last player left wins (rule 15), or play goes on."""
    folded = state.has_folded
    live = [s for s in state.players if not folded[s]]
    if len(live) == 1:
        return award_uncontested(return_uncalled(state), live[0])
    return pass_turn(state, seat)


def return_uncalled(state: HandState) -> HandState:
    """Give back the part of the biggest bet that nobody matched (rule 7)."""
    contributed = state.contributed
    ranked = sorted(contributed)
    excess = ranked[-1] - ranked[-2]
    if excess == 0:
        return state
    top = contributed.index(ranked[-1])
    stacks = list(state.stacks)
    bets = list(state.bets)
    contributions = list(contributed)
    stacks[top] += excess
    bets[top] -= excess
    contributions[top] -= excess
    return evolve(
        state,
        stacks=tuple(stacks),
        bets=tuple(bets),
        contributed=tuple(contributions),
        events=(*state.events, UncalledBetReturned(top, excess)),
    )


def close_street(state: HandState) -> HandState:
    """Betting is over on this street: deal the next one, run out, or show down."""
    state = return_uncalled(state)
    if state.street == "river":
        return showdown(_gather_bets(state))
    if able_to_act_count(state) >= 2:
        return _deal_street(state)
    return _run_out(_gather_bets(state))


def _gather_bets(state: HandState) -> HandState:
    count = state.seat_count
    return evolve(state, bets=(0,) * count, acted_at=(-1,) * count, actor=None)


def _deal_street(state: HandState) -> HandState:
    street = STREETS[STREETS.index(state.street) + 1]
    size = _BOARD_SIZE[street]
    new_cards = state.deck[state.next_card : state.next_card + size]
    state = evolve(
        state,
        street=street,
        board=state.board + new_cards,
        next_card=state.next_card + size,
        bets=(0,) * state.seat_count,
        acted_at=(-1,) * state.seat_count,
        actor=None,
        current_bet=0,
        min_raise_increment=state.big_blind,  # rule 1: the smallest bet is the big blind
        last_aggressor=None,
        events=(*state.events, BoardDealt(street, new_cards)),
    )
    actor = next_actor(state, state.button)
    write_fresh(state, "actor", actor)  # built just above: nobody else holds it yet
    return state


def _run_out(state: HandState) -> HandState:
    """No more decisions are possible: turn every live hand face up, then deal
    the rest of the board (rule 14), or wait for the players to choose one or
    two run-outs when the hand offers them (rule 25)."""
    shown = list(state.has_shown)
    events: list[Event] = []
    for seat in showdown_order(state):
        shown[seat] = True
        events.append(CardsShown(seat, state.holes[seat]))
    state = evolve(state, has_shown=tuple(shown), events=state.events + tuple(events))
    if state.run_it_twice and state.street != "river":
        return evolve(state, runout_pending=True)
    return showdown(_deal_to_river(state))


def _deal_to_river(state: HandState) -> HandState:
    while state.street != "river":
        state = _deal_street(state)
    return state


def choose_runouts(state: HandState, count: int) -> HandState:
    """Run the rest of the board ``count`` times (1 or 2) once every player in
    the pot has answered (rule 25): the second board takes the cards after the
    first's, from the same deck, and each pot is halved between the boards."""
    if not state.runout_pending:
        raise IllegalAction("nobody is choosing how many times to run the board")
    if count not in (1, 2):
        raise IllegalAction(f"the board runs once or twice, not {count!r} times")
    paused = evolve(state, runout_pending=False, events=(*state.events, RunoutsChosen(count)))
    first = _deal_to_river(paused)
    if count == 1:
        return showdown(first)
    second, position = paused.board, first.next_card
    events = list(first.events)
    for street in STREETS[STREETS.index(paused.street) + 1 :]:
        cards = state.deck[position : position + _BOARD_SIZE[street]]
        position += len(cards)
        second += cards
        events.append(BoardDealt(street, cards, 1))
    return showdown(evolve(first, second_board=second, next_card=position, events=tuple(events)))

"""The per-player facts a tracker counts, computed once from a finished hand.

``hand_facts(state)`` reads the hand's event log and returns, per seat dealt
in, the fields ``HandPlayer`` stores (tables/history/record.py writes them
in the transaction that ends the hand). Stats are then SQL sums over these
rows (tables/history/stats.py), never a replay. Definitions: docs/history.md
"Statistics"; where it is silent, the common tracker ones (a walk gives the
big blind no VPIP chance; a c-bet chance needs the last preflop raiser to act
on the flop before anyone bets).

All-in EV: when the board ran out with cards to come and no betting left
(rule 14: every live hand was turned face up), each live player's result is
replaced by its exact equity (``engine.equity``) in each pot it could win,
times that pot, minus what it put in.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Any

import engine
from engine.events import BoardDealt, CardsShown, PlayerActed, PotAwarded
from engine.formats.phh import phh_order

AGGRESSIVE = ("bet", "raise")
# Named from the button backwards, for the seats that post no blind.
POSITIONS_FROM_BUTTON = ("BTN", "CO", "HJ", "UTG")
POSITION_CHOICES = ("BTN", "SB", "BB", "CO", "HJ", "UTG")


@dataclass(frozen=True)
class _Preflop:
    """The preflop decisions in order, and who made the last raise."""

    acts: list[PlayerActed]
    last_raiser: int | None


def hand_facts(state: engine.HandState, *, with_allin_ev: bool = True) -> dict[int, dict[str, Any]]:
    """Per seat dealt in: position, tracker facts, net and all-in EV (chips and big blinds).

    ``with_allin_ev=False`` leaves the all-in EV at the actual result, to be filled
    in later (tables/history/allin_ev.py) where the equity would take too long.
    """
    acts = [e for e in state.events if isinstance(e, PlayerActed)]
    preflop_acts = [e for e in acts if e.street == "preflop"]
    raisers = [e.seat for e in preflop_acts if e.action in AGGRESSIVE]
    preflop = _Preflop(preflop_acts, raisers[-1] if raisers else None)
    flop = [e for e in acts if e.street == "flop"]
    ev = allin_ev(state) if with_allin_ev else {}
    facts = {}
    for seat in state.players:
        net = state.stacks[seat] - (state.starting_stacks[seat] or 0)
        seat_ev = ev.get(seat, float(net))
        facts[seat] = {
            "position": position_of(state, seat),
            **_preflop_facts(state, preflop, seat),
            **_postflop_facts(acts, seat),
            **_cbet_facts(flop, preflop.last_raiser, seat),
            **_result_facts(state, seat),
            "net_bb": net / state.big_blind,
            "allin_ev": seat_ev,
            "allin_ev_bb": seat_ev / state.big_blind,
            "is_allin_ev": seat in ev,
        }
    return facts


def position_of(state: engine.HandState, seat: int) -> str:
    """BTN, SB, BB, then CO, HJ, UTG counting back from the button (heads-up: BTN, BB)."""
    if seat == state.button:
        return "BTN"
    if seat == state.small_blind_seat:
        return "SB"
    if seat == state.big_blind_seat:
        return "BB"
    blinds = (state.button, state.small_blind_seat, state.big_blind_seat)
    others = [s for s in reversed(phh_order(state)) if s not in blinds]
    return POSITIONS_FROM_BUTTON[min(others.index(seat) + 1, len(POSITIONS_FROM_BUTTON) - 1)]


def _preflop_facts(state: engine.HandState, preflop: _Preflop, seat: int) -> dict[str, bool]:
    mine = [e for e in preflop.acts if e.seat == seat]
    raises = 0
    faced: list[int] = []  # raises standing at each of the seat's decisions
    for event in preflop.acts:
        if event.seat == seat:
            faced.append(raises)
        if event.action in AGGRESSIVE:
            raises += 1
    opened = bool(mine) and faced[0] == 0 and mine[0].action in AGGRESSIVE
    faced_three_bet = opened and len(mine) > 1 and faced[1] == 2
    flop_dealt = any(isinstance(e, BoardDealt) for e in state.events)
    is_walk = seat == state.big_blind_seat and not mine and not flop_dealt
    return {
        # a bomb pot has no preflop decision (rule 24): it counts in neither VPIP nor PFR
        "vpip_chance": not is_walk and not state.bomb_pot,
        "vpip": any(e.action in ("call", *AGGRESSIVE) for e in mine),
        "pfr": any(e.action in AGGRESSIVE for e in mine),
        "could_three_bet": 1 in faced,
        "three_bet": any(
            f == 1 and e.action in AGGRESSIVE for f, e in zip(faced, mine, strict=True)
        ),
        "faced_three_bet": faced_three_bet,
        "folded_to_three_bet": faced_three_bet and mine[1].action == "fold",
    }


def _postflop_facts(acts: list[PlayerActed], seat: int) -> dict[str, int]:
    mine = [e.action for e in acts if e.seat == seat and e.street != "preflop"]
    return {
        "postflop_aggressive": sum(a in AGGRESSIVE for a in mine),
        "postflop_calls": mine.count("call"),
        "postflop_folds": mine.count("fold"),
    }


def _cbet_facts(flop: list[PlayerActed], aggressor: int | None, seat: int) -> dict[str, bool]:
    """C-bet chance and c-bet for the preflop aggressor; facing one and folding for the rest."""
    cbet_at = None
    for index, event in enumerate(flop):
        if event.action in AGGRESSIVE:
            is_cbet = event.seat == aggressor and all(e.seat != aggressor for e in flop[:index])
            cbet_at = index if is_cbet else None
            break
    could_cbet = False
    if seat == aggressor:
        first = next((i for i, e in enumerate(flop) if e.seat == seat), None)
        could_cbet = first is not None and all(e.action not in AGGRESSIVE for e in flop[:first])
    answer = None
    if cbet_at is not None and seat != aggressor:
        for event in flop[cbet_at + 1 :]:
            if event.action == "raise" and event.seat != seat:
                break  # facing a raise now, not the c-bet
            if event.seat == seat:
                answer = event.action
                break
    return {
        "could_cbet": could_cbet,
        "cbet": could_cbet and cbet_at is not None and seat == aggressor,
        "faced_cbet": answer is not None,
        "folded_to_cbet": answer == "fold",
    }


def _result_facts(state: engine.HandState, seat: int) -> dict[str, bool]:
    flop_at = next((i for i, e in enumerate(state.events) if isinstance(e, BoardDealt)), None)
    fold_at = next(
        (
            i
            for i, e in enumerate(state.events)
            if isinstance(e, PlayerActed) and e.seat == seat and e.action == "fold"
        ),
        None,
    )
    saw_flop = flop_at is not None and (fold_at is None or fold_at > flop_at)
    pots = [e for e in state.events if isinstance(e, PotAwarded)]
    showdown = fold_at is None and any(p.description is not None for p in pots)
    won = any(s == seat and chips > 0 for p in pots for s, chips in p.shares)
    return {
        "saw_flop": saw_flop,
        "went_to_showdown": showdown,
        "won_at_showdown": showdown and won,
        "won_chips": won,
    }


def allin_ev(state: engine.HandState) -> dict[int, float]:
    """Expected net chips per live seat when the board ran out all-in; ``{}`` otherwise.

    The run-out is where the engine turned live hands face up before the
    river (rule 14); the board known then is what the equity starts from.
    """
    board_at = _allin_board(state)
    if board_at is None:
        return {}
    live = [s for s in state.players if not state.has_folded[s]]
    board = state.board[:board_at]
    expected = {seat: 0.0 for seat in live}
    pots: dict[int, tuple[int, tuple[int, ...]]] = {}  # a pot run twice is paid in two halves
    for award in (e for e in state.events if isinstance(e, PotAwarded)):
        paid, _ = pots.get(award.pot_index, (0, award.eligible))
        pots[award.pot_index] = (paid + award.amount, award.eligible)
    for amount, eligible in pots.values():
        contenders = [s for s in eligible if s in expected]
        # The other face-up hands are known cards: out of this pot's run-outs.
        dead = [c for s in live if s not in contenders for c in state.holes[s]]
        hands = [state.holes[s] for s in contenders]
        # Exact wherever that is cheap (every Hold'em all-in); an Omaha all-in before
        # the flop is sampled, with a fixed seed so the figure never changes.
        shares = (
            engine.estimate_equity(hands, board=board, dead=dead, rng=Random(0)).shares
            if len(contenders) > 1
            else (1.0,)
        )
        for seat, share in zip(contenders, shares, strict=True):
            expected[seat] += share * amount
    return {seat: expected[seat] - _put_in(state, seat) for seat in live}


def has_allin_ev(state: engine.HandState) -> bool:
    """Whether ``allin_ev`` would replace anyone's result (cheap: no equity computed)."""
    return _allin_board(state) is not None


def _allin_board(state: engine.HandState) -> int | None:
    """How many board cards were out when every live hand was turned up before the
    river (rule 14); None when the hand did not run out that way."""
    board_at: int | None = None
    dealt = 0
    for event in state.events:
        if isinstance(event, BoardDealt):
            dealt += len(event.cards)
        elif isinstance(event, CardsShown):
            board_at = dealt
            break
    live = [s for s in state.players if not state.has_folded[s]]
    if board_at is None or board_at >= 5 or not all(state.has_shown[s] for s in live):
        return None
    if len(live) > engine.EQUITY_MAX_HANDS:
        return None  # a full ring all-in: too many hands to enumerate, the net stands
    return board_at


def _put_in(state: engine.HandState, seat: int) -> int:
    """Chips the seat lost into the pots: start minus end plus what it won back."""
    won = sum(
        chips
        for e in state.events
        if isinstance(e, PotAwarded)
        for s, chips in e.shares
        if s == seat
    )
    return (state.starting_stacks[seat] or 0) - state.stacks[seat] + won

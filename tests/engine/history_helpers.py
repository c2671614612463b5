"""Random hands for the hand-history tests (PHH, PokerStars, PokerKit comparisons).

Everything is driven by a seeded ``random.Random`` so a failure names its
seed and replays exactly.
"""

from __future__ import annotations

from random import Random
from typing import Any

from pokerkit import Automation, HandHistory, Mode, NoLimitTexasHoldem, PotLimitOmahaHoldem, State

from engine.actions import Action, Call, Check, Fold, RaiseTo
from engine.betting import apply_action, legal_actions
from engine.cards import cards_str, new_deck
from engine.deal import new_hand, under_the_gun
from engine.events import PotAwarded
from engine.games import GAMES, NO_LIMIT_HOLDEM, POT_LIMIT_OMAHA
from engine.state import NO_SMALL_BLIND, HandState
from engine.streets import choose_runouts
from tests.engine.dealing import awkward_stacks

SMALL_BLIND, BIG_BLIND = 10, 20


def awkward_stack(rng: Random, small_blind: int, big_blind: int, ante: int) -> int:
    """One of ``awkward_stacks``: where the forced-bet rules bite (rules 9 and 10)."""
    return rng.choice(awkward_stacks(small_blind, big_blind, ante))


def random_hand(
    rng: Random,
    *,
    ante: int | None = None,
    short_stacks: bool = True,
    max_players: int = 6,
    game: str = NO_LIMIT_HOLDEM,
) -> HandState:
    """A finished hand of ``game``: 2..max_players players at up to six seats, random
    decisions.

    ``short_stacks=False`` keeps every stack above the big blind plus the
    ante (PokerKit and Felt differ on a short big blind, rule 9).
    """
    player_count = rng.randint(2, max_players)
    seat_count = rng.randint(player_count, 6)
    occupied = sorted(rng.sample(range(seat_count), player_count))
    ante = rng.choice([0, 0, 5]) if ante is None else ante
    floor = 1 if short_stacks else BIG_BLIND + ante + 1
    stacks: list[int | None] = [None] * seat_count
    for seat in occupied:
        short = rng.random() < 0.25  # a quarter of the stacks are ten big blinds or less
        stacks[seat] = floor + (rng.randint(0, 200) if short else rng.randint(200, 4000))
    button = rng.choice(occupied if player_count == 2 else range(seat_count))
    dead_small_blind = player_count > 2 and rng.random() < 0.1
    state = new_hand(
        stacks,
        button,
        small_blind=SMALL_BLIND,
        big_blind=BIG_BLIND,
        ante=ante,
        small_blind_seat=NO_SMALL_BLIND if dead_small_blind else None,
        deck=new_deck(rng),
        game=game,
    )
    return play_randomly(state, rng)


def random_home_hand(rng: Random, option: str, *, game: str = NO_LIMIT_HOLDEM) -> HandState:
    """A finished hand of ``game`` with one home-game option (rules 23-25), random
    decisions: ``"straddle"`` (three to six players, the seat under the gun covering
    it), ``"bomb_pot"`` (a stake of one to three big blinds) or ``"run_it_twice"``
    (two run-outs chosen nine times in ten). Seats and stacks are as awkward as
    ``random_hand``'s, a dead small blind included."""
    player_count = rng.randint(3 if option == "straddle" else 2, 6)
    seat_count = rng.randint(player_count, 6)
    occupied = sorted(rng.sample(range(seat_count), player_count))
    ante = rng.choice([0, 0, 5])
    stacks: list[int | None] = [None] * seat_count
    for seat in occupied:
        roll = rng.random()
        if roll < 0.2:
            stacks[seat] = awkward_stack(rng, SMALL_BLIND, BIG_BLIND, ante)
        else:
            stacks[seat] = ante + BIG_BLIND + rng.randint(0, 300 if roll < 0.5 else 3000)
    button = rng.choice(occupied if player_count == 2 else range(seat_count))
    dead_small_blind = player_count > 2 and rng.random() < 0.1
    no_sb = NO_SMALL_BLIND if dead_small_blind else None
    options: dict[str, Any] = {option: True}
    if option == "bomb_pot":
        options[option] = BIG_BLIND * rng.randint(1, 3)
    if option == "straddle":
        positions = new_hand(stacks, button, SMALL_BLIND, BIG_BLIND, small_blind_seat=no_sb)
        seat = under_the_gun(stacks, positions.big_blind_seat)
        stacks[seat] = max(stacks[seat] or 0, ante + 2 * BIG_BLIND + rng.randint(0, 500))
    state = new_hand(
        stacks,
        button,
        small_blind=SMALL_BLIND,
        big_blind=BIG_BLIND,
        ante=ante,
        small_blind_seat=no_sb,
        deck=new_deck(rng),
        game=game,
        **options,
    )
    while not state.is_over:
        if state.runout_pending:
            state = choose_runouts(state, 2 if rng.random() < 0.9 else 1)
        else:
            state = apply_action(state, random_action(state, rng))
    return state


def play_randomly(state: HandState, rng: Random) -> HandState:
    """Random legal decisions (folds, checks, calls, bets, raises, all-ins) to the end."""
    while not state.is_over:
        state = apply_action(state, random_action(state, rng))
    return state


def random_action(state: HandState, rng: Random) -> Action:
    legal = legal_actions(state)
    roll = rng.random()
    if not legal.can_check and roll < 0.2:
        return Fold()
    if legal.min_raise_to is not None and legal.max_raise_to is not None and roll > 0.75:
        low, high = legal.min_raise_to, legal.max_raise_to
        size = rng.random()
        if size < 0.15:
            return RaiseTo(high)  # all-in
        return RaiseTo(low if size < 0.6 else rng.randint(low, min(high, 4 * low)))
    return Check() if legal.can_check else Call()


def seed_part(hands: int, part: int, parts: int) -> range:
    """Run ``part`` of the seeds 0..hands-1 cut into ``parts`` runs of consecutive seeds.

    A long differential test split this way lets the test processes share its
    hands, and keeps each part within the per-test timeout in the long run.
    """
    return range(hands * part // parts, hands * (part + 1) // parts)


def split_pot_count(state: HandState) -> int:
    """How many pots were divided between tied winners."""
    return sum(
        1 for event in state.events if isinstance(event, PotAwarded) and len(event.shares) > 1
    )


POKERKIT_GAMES = {NO_LIMIT_HOLDEM: NoLimitTexasHoldem, POT_LIMIT_OMAHA: PotLimitOmahaHoldem}
POKERKIT_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def pokerkit_history(
    rng: Random,
    *,
    short_stacks: bool = True,
    game: str = NO_LIMIT_HOLDEM,
    bomb_pot: bool = False,
    straddle: bool = False,
) -> tuple[str, list[int]]:
    """A hand of ``game`` played in PokerKit with random decisions, dumped as PHH by
    PokerKit.

    A fifth of the stacks are awkward (``awkward_stack``) unless ``short_stacks``
    is False. ``bomb_pot=True`` plays a bomb pot as PokerKit can (rule 24): a
    stake of one to three big blinds as everyone's ante, no blinds, and every
    player with chips checking before the flop. ``straddle=True`` has p3, the
    player after the big blind, straddle two big blinds (rule 23), at three
    players or more, with the chips to cover it.

    Returns the PHH text and PokerKit's finishing stacks.
    """
    count = rng.randint(3 if straddle else 2, 6)  # heads-up as often as six-handed
    ante = BIG_BLIND * rng.randint(1, 3) if bomb_pot else rng.choice([0, 0, 5])
    stacks = [
        awkward_stack(rng, SMALL_BLIND, BIG_BLIND, ante)
        if short_stacks and rng.random() < 0.2
        else BIG_BLIND + ante + 1 + rng.randint(0, 2000)
        for _ in range(count)
    ]
    if sum(chips > ante for chips in stacks) < 2:
        stacks[0] = BIG_BLIND + ante + 1 + rng.randint(0, 2000)  # someone must get past the ante
    if straddle:
        stacks[2] = max(stacks[2], ante + 2 * BIG_BLIND + rng.randint(0, 500))
    forced = (SMALL_BLIND, BIG_BLIND, 2 * BIG_BLIND) if straddle else (SMALL_BLIND, BIG_BLIND)
    pokerkit_game = POKERKIT_GAMES[game](
        POKERKIT_AUTOMATIONS,
        True,
        ante,
        (0, 0) if bomb_pot else forced,
        BIG_BLIND,
        mode=Mode.TOURNAMENT,
    )
    state = pokerkit_game(stacks, count)
    deck = iter(new_deck(rng))
    for _ in range(count * GAMES[game].hole_card_count):
        state.deal_hole(cards_str([next(deck)]))
    while state.status:
        if state.can_burn_card():
            state.burn_card("??")
        elif state.can_deal_board():
            size = 3 if not state.board_cards else 1
            state.deal_board(cards_str([next(deck) for _ in range(size)]))
        elif bomb_pot and state.street_index == 0:
            state.check_or_call()  # nobody bets before a bomb pot's flop
        else:
            _pokerkit_decision(state, rng)
    history = HandHistory.from_game_state(pokerkit_game, state)
    return history.dumps(), list(state.stacks)


def _pokerkit_decision(state: State, rng: Random) -> None:
    roll = rng.random()
    facing_bet = state.checking_or_calling_amount
    if facing_bet and roll < 0.2:
        state.fold()
    elif state.can_complete_bet_or_raise_to() and roll > 0.6:
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        assert low is not None and high is not None
        state.complete_bet_or_raise_to(rng.choice([low, high, rng.randint(low, high)]))
    else:
        state.check_or_call()

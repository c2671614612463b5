"""Differential tests: Felt's betting engine against PokerKit on random hands,
of No-Limit Hold'em (PokerKit's ``NoLimitTexasHoldem``) and of Pot-Limit Omaha
(its ``PotLimitOmahaHoldem``: four hole cards, pot-limit bounds, rules 21-22).

Both engines play the same seats, stacks, antes, deck and decisions; at every
decision they must agree on whose turn it is, the amount to call, whether a
raise is allowed and its bounds; at the end, on every final stack.

With the home-game options (``home_options=True``) a hand may also have a
straddle (PokerKit's third blind), be a bomb pot (PokerKit: everyone's ante,
no blinds, and checks before the flop that the harness makes for it) or
offer two run-outs (PokerKit's cash-game mode, where every player in the pot
selects the run-out count and one refusal means one run).

PokerKit conventions worth knowing (and how this harness bridges them):
- its players are numbered from the small blind (heads-up: from the big blind),
  i.e. in Felt's dealing order starting left of the button;
- it is driven without dealing automations so it can be given Felt's cards;
  it burns cards, Felt does not (burns are fed as unknown cards);
- tournament mode, like Felt, refuses a fold when checking is free.
- when no other player could answer a bet, PokerKit still asks the last
  player with chips for a decision that can only be a check; Felt skips it
  (the harness checks for PokerKit).

Every difference is classified by the documented rule that makes it, from the
hand's own actions; one that no rule explains fails, naming the seed:
- rule 9, a big blind posted short (the random tables deal such stacks on
  purpose): Felt makes everyone owe the full big blind, PokerKit only the
  chips actually posted. From the first decision where the engines disagree
  in such a hand, they play different hands: the harness stops comparing,
  plays Felt's hand to the end alone and counts it.
- rule 4, reopening (with rule 2 and TDA rule 47): PokerKit lets a player who
  already acted re-raise after a short all-in in two cases Felt refuses:
  before the flop (PokerKit does not count the big blind as the street's
  first full bet, so a one-chip all-in raise over it reopens the betting) and
  after a check, facing an all-in bet smaller than the big blind. Felt follows
  the TDA: an all-in less than a full bet or raise does not reopen the
  betting for players who already acted. The harness counts these decisions
  and compares everything but the raise bounds there.
- rule 12, odd chips: Felt splits each side pot on its own, odd chip by odd
  chip; PokerKit merges some side pots before dividing, so a tied hand over
  several pots can move a chip or two between the tied winners. Accepted only
  for seats that tied for a pot, within one chip per pot.
- rule 23, the straddle: until someone raises it by more than the straddle,
  Felt's smallest raise adds the straddle (to four big blinds); PokerKit's
  adds one big blind (or the last raise over the straddle, if smaller).
  Counted per decision; everything else there is compared.
- rule 25, odd chips of a hand run twice: both give a pot's odd chip to the
  first board, but PokerKit halves some side pots merged, so a chip per pot
  can move between the two boards' winners.

``FELT_DIFFERENTIAL_HANDS`` sets how many random Hold'em hands run (3,000 by default;
the long run in docs/testing.md uses tens of thousands), and Omaha plays half as
many: PokerKit evaluates an Omaha showdown at about 2.3 times a Hold'em one's cost,
and the rules the two games share are played in the Hold'em hands too.
"""

from __future__ import annotations

import os
from collections import Counter
from random import Random
from typing import Any

import pytest
from pokerkit import Mode, State

from engine.actions import Action, Call, Check, Fold, RaiseTo
from engine.betting import NOT_REOPENED, apply_action, legal_actions, raise_refusal
from engine.cards import cards_str, new_deck
from engine.deal import new_hand, under_the_gun
from engine.events import BoardDealt, PotAwarded
from engine.games import NO_LIMIT_HOLDEM, POT_LIMIT_OMAHA
from engine.state import HandState
from engine.streets import choose_runouts
from tests.engine.history_helpers import POKERKIT_AUTOMATIONS, POKERKIT_GAMES, awkward_stack

HANDS = int(os.environ.get("FELT_DIFFERENTIAL_HANDS", "3000"))
HANDS_OF = {NO_LIMIT_HOLDEM: HANDS, POT_LIMIT_OMAHA: HANDS // 2}


def _random_table(rng: Random) -> tuple[list[int | None], int, int, int, int]:
    """Seats (some empty), button, blinds and ante.

    Heads-up comes up as often as six-handed; a fifth of the stacks are awkward
    (``awkward_stack``: below the ante or a blind, between the blinds, exactly a
    blind), the rest short or deep.
    """
    player_count = rng.randint(2, 6)
    seat_count = rng.randint(player_count, 6)
    small_blind, big_blind = rng.choice([(1, 2), (5, 10), (25, 50), (3, 10)])
    ante = rng.choice([0, 0, 0, 1, small_blind, big_blind // 4, big_blind])
    floor = big_blind + ante
    occupied = set(rng.sample(range(seat_count), player_count))
    stacks: list[int | None] = []
    for seat in range(seat_count):
        if seat not in occupied:
            stacks.append(None)
            continue
        style = rng.random()
        if style < 0.2:
            stacks.append(awkward_stack(rng, small_blind, big_blind, ante))
        elif style < 0.45:
            stacks.append(floor + rng.randint(0, 6 * big_blind))  # short: all-ins galore
        else:
            stacks.append(floor + rng.randint(0, 150 * big_blind))
    # Heads-up, the button is on a player: that is how engine.positions seats them.
    button = rng.choice(sorted(occupied) if player_count == 2 else range(seat_count))
    return stacks, button, small_blind, big_blind, ante


def _home_options(
    rng: Random, stacks: list[int | None], button: int, big_blind: int, ante: int
) -> dict[str, Any]:
    """Random home-game options for a hand: a straddle (when the seat under the
    gun can cover it), or a bomb pot of one to three big blinds; run it twice
    offered in half the hands."""
    options: dict[str, Any] = {"run_it_twice": rng.random() < 0.5}
    players = [s for s in range(len(stacks)) if stacks[s]]
    roll = rng.random()
    if roll < 0.4 and len(players) >= 3:
        positions = new_hand(stacks, button, big_blind // 2 or 1, big_blind)
        seat = under_the_gun(stacks, positions.big_blind_seat)
        options["straddle"] = (stacks[seat] or 0) >= ante + 2 * big_blind
    elif roll < 0.7:
        options["bomb_pot"] = big_blind * rng.randint(1, 3)
    return options


def _pokerkit_state(ours: HandState, order: list[int]) -> State:
    forced: tuple[int, ...] = (ours.small_blind, ours.big_blind)
    if ours.straddle_seat is not None:
        forced += (2 * ours.big_blind,)  # PokerKit's third forced bet: the straddle
    if ours.bomb_pot:
        forced = (0, 0)  # rule 24: only the bomb pot's stake, as everyone's ante
    pk = POKERKIT_GAMES[ours.game].create_state(
        POKERKIT_AUTOMATIONS,
        True,  # ante trimming: a short ante wins only what it put in, as in rule 10
        ours.bomb_pot or ours.ante,
        forced,
        ours.big_blind,
        [ours.starting_stacks[s] or 0 for s in order],
        len(order),
        # PokerKit offers run-outs only in cash games; the harness never folds
        # where checking is free, the one rule tournament mode adds
        mode=Mode.CASH_GAME if ours.run_it_twice else Mode.TOURNAMENT,
    )
    for seat in order:
        pk.deal_hole(cards_str(ours.holes[seat]))
    return pk


def _sync_board(pk: State, ours: HandState) -> None:
    """Deal PokerKit the board cards Felt dealt, in Felt's order, as far as
    PokerKit wants them: both engines deal a second run-out street by street
    after the first (rule 25); PokerKit's preflop checks in a bomb pot, where
    Felt has no decisions (rule 24), are made for it."""
    dealt = [c for e in ours.events if isinstance(e, BoardDealt) for c in e.cards]
    while pk.status and (pk.actor_index is None or _bomb_pot_preflop(pk, ours)):
        if pk.actor_index is not None:
            pk.check_or_call()
        elif pk.can_burn_card():
            pk.burn_card("??")
        elif pk.can_deal_board():
            have = sum(len(cards) for cards in pk.board_cards)
            assert pk.street is not None
            size = pk.street.board_dealing_count
            pk.deal_board(cards_str(tuple(dealt[have : have + size])))
        else:
            break


def _bomb_pot_preflop(pk: State, ours: HandState) -> bool:
    return bool(ours.bomb_pot) and pk.street_index == 0


def _choose(rng: Random, ours: HandState) -> Action:
    legal = legal_actions(ours)
    roll = rng.random()
    if not legal.can_check and roll < 0.2:
        return Fold()
    if legal.min_raise_to is not None and legal.max_raise_to is not None and roll > 0.55:
        roll = rng.random()
        if roll < 0.4:
            return RaiseTo(legal.max_raise_to)
        if roll < 0.7:
            return RaiseTo(legal.min_raise_to)
        return RaiseTo(rng.randint(legal.min_raise_to, legal.max_raise_to))
    return Check() if legal.can_check else Call()


def _apply_to_pokerkit(pk: State, action: Action) -> None:
    if isinstance(action, Fold):
        pk.fold()
    elif isinstance(action, RaiseTo):
        pk.complete_bet_or_raise_to(action.amount)
    else:
        pk.check_or_call()


def _skip_pointless_checks(pk: State, ours: HandState, order: list[int]) -> None:
    """PokerKit asks for a check nobody could answer; Felt skips that decision."""
    while (
        pk.actor_index is not None
        and order[pk.actor_index] != ours.actor
        and pk.checking_or_calling_amount == 0
        and pk.min_completion_betting_or_raising_to_amount is None
    ):
        pk.check_or_call()
        _sync_board(pk, ours)


def _is_reopening_difference(pk: State, ours: HandState) -> bool:
    """A decision where PokerKit reopens the betting and the TDA does not (rule 4)."""
    seat = legal_actions(ours).actor
    assert seat is not None
    return (
        raise_refusal(ours, seat) == NOT_REOPENED
        and pk.min_completion_betting_or_raising_to_amount is not None
    )


def _is_straddle_raise_difference(
    ours: HandState, their_min: int | None, their_max: int | None
) -> bool:
    """Rule 23: until someone raises a straddle by more than the straddle, Felt's
    smallest raise adds the straddle (to four big blinds), PokerKit's one big
    blind, or the raise over the straddle when that is less than the straddle."""
    legal = legal_actions(ours)
    if legal.actor is None or legal.max_raise_to is None or their_min is None:
        return False
    everything = ours.stacks[legal.actor] + ours.bets[legal.actor]
    full = ours.current_bet + ours.min_raise_increment
    return (
        ours.straddle_seat is not None
        and ours.street == "preflop"
        and ours.min_raise_increment == 2 * ours.big_blind
        and their_max == legal.max_raise_to
        and min(full - ours.big_blind, everything) <= their_min < min(full, everything)
    )


def _big_blind_was_short(ours: HandState) -> bool:
    """Rule 9 applies: the big blind could not post a full blind after the ante."""
    return (ours.starting_stacks[ours.big_blind_seat] or 0) < ours.ante + ours.big_blind


def _compare_decision(pk: State, ours: HandState, order: list[int], where: str) -> str | None:
    """Compare one decision: None when the engines agree, else the rule that explains
    the difference ("rule 4" or "rule 9"). Fails when no rule does."""
    legal = legal_actions(ours)
    theirs = (
        order[pk.actor_index] if pk.actor_index is not None else None,
        pk.checking_or_calling_amount,
        pk.min_completion_betting_or_raising_to_amount,
        pk.max_completion_betting_or_raising_to_amount,
    )
    mine = (legal.actor, legal.call_amount, legal.min_raise_to, legal.max_raise_to)
    if theirs == mine:
        return None
    if theirs[:2] == mine[:2] and _is_reopening_difference(pk, ours):
        return "rule 4"
    if theirs[:2] == mine[:2] and _is_straddle_raise_difference(ours, theirs[2], theirs[3]):
        return "rule 23"
    assert _big_blind_was_short(ours), f"{where}: PokerKit {theirs}, Felt {mine}"
    return "rule 9"


def _final_stacks_difference(pk: State, ours: HandState, order: list[int], where: str) -> str:
    """ "" when the final stacks agree, else the rule that explains it; fails otherwise."""
    theirs = dict(zip(order, pk.stacks, strict=True))
    if all(theirs[s] == ours.stacks[s] for s in order):
        return ""
    assert sum(theirs.values()) == sum(ours.stacks), where
    awards = [e for e in ours.events if isinstance(e, PotAwarded)]
    tied = {seat for e in awards if len(e.shares) > 1 for seat, _ in e.shares}
    gaps = {seat: abs(theirs[seat] - ours.stacks[seat]) for seat in order}
    if all(gap == 0 or (seat in tied and gap <= len(awards)) for seat, gap in gaps.items()):
        return "rule 12"
    # rule 25: a pot run twice gives its odd chip to the first board; PokerKit
    # divides some side pots merged, so the odd chips can fall differently
    winners = {seat for e in awards for seat, chips in e.shares if chips}
    if ours.second_board and all(
        gap == 0 or (seat in winners and gap <= len(awards) // 2) for seat, gap in gaps.items()
    ):
        return "rule 25"
    assert _big_blind_was_short(ours), f"{where}: PokerKit {theirs}, Felt {ours.stacks}"
    return "rule 9"


def play_both(seed: int, game: str = NO_LIMIT_HOLDEM, home_options: bool = False) -> Counter[str]:
    """Play one random hand in both engines; count its decisions and its differences.

    A difference that a documented rule explains is counted under that rule
    ("rule 4" per decision; "rule 9" and "rule 12" per hand); any other fails,
    naming the seed. After a rule-9 difference the engines play different
    hands, so Felt finishes the hand alone.
    """
    rng = Random(seed)
    stacks, button, small_blind, big_blind, ante = _random_table(rng)
    options = _home_options(rng, stacks, button, big_blind, ante) if home_options else {}
    deck = new_deck(rng)
    ours = new_hand(stacks, button, small_blind, big_blind, ante, deck=deck, game=game, **options)
    count = len(stacks)
    order = [(button + k) % count for k in range(1, count + 1) if stacks[(button + k) % count]]
    pk: State | None = _pokerkit_state(ours, order)
    found: Counter[str] = Counter(hands=1)
    while not ours.is_over:
        if ours.runout_pending:
            ours, pk = _choose_runouts(rng, ours, pk, order, found, f"seed {seed}")
            continue
        if pk is not None:
            _sync_board(pk, ours)
            _skip_pointless_checks(pk, ours, order)
            where = f"seed {seed}, decision {found['decisions']}: {ours.events[-1]}"
            rule = _compare_decision(pk, ours, order, where)
            if rule is not None:
                found[rule] += 1
            if rule == "rule 9":
                pk = None
        action = _choose(rng, ours)
        ours = apply_action(ours, action)
        if pk is not None:
            _apply_to_pokerkit(pk, action)
        found["decisions"] += 1
    assert sum(ours.stacks) == sum(chips or 0 for chips in stacks), f"seed {seed}"  # rule 16
    if pk is None:
        return found
    _sync_board(pk, ours)
    _skip_pointless_checks(pk, ours, order)
    if pk.status:
        assert _big_blind_was_short(ours), f"seed {seed}: PokerKit still expects a decision"
        found["rule 9"] += 1
        return found
    rule = _final_stacks_difference(pk, ours, order, f"seed {seed}")
    if rule:
        found[rule] += 1
    return found


def _choose_runouts(
    rng: Random,
    ours: HandState,
    pk: State | None,
    order: list[int],
    found: Counter[str],
    where: str,
) -> tuple[HandState, State | None]:
    """The players all-in choose one or two run-outs, in both engines (rule 25):
    two when every one of them asks for two, else one."""
    wants = {seat: rng.random() < 0.8 for seat in order if ours.is_live(seat)}
    count = 2 if all(wants.values()) else 1
    found[f"run {count}"] += 1
    if pk is not None:
        _sync_board(pk, ours)
        _skip_pointless_checks(pk, ours, order)
        assert pk.can_select_runout_count(), f"{where}: PokerKit offers no run-outs"
        while pk.can_select_runout_count():
            player = next(iter(pk.runout_count_selector_indices))
            pk.select_runout_count(2 if wants[order[player]] else 1)
    return choose_runouts(ours, count), pk


def differential_run(
    hands: int, first_seed: int = 0, game: str = NO_LIMIT_HOLDEM, home_options: bool = False
) -> Counter[str]:
    """``hands`` random hands of ``game`` from ``first_seed`` on: decisions, hands and
    differences by rule."""
    total: Counter[str] = Counter()
    for seed in range(first_seed, first_seed + hands):
        total += play_both(seed, game, home_options)
    return total


# The seeds 0..HANDS-1 in four runs of consecutive seeds, so the test processes share
# the work instead of one of them playing every hand while the other waits.
PARTS = 4


@pytest.mark.exhaustive
@pytest.mark.parametrize("game", [NO_LIMIT_HOLDEM, POT_LIMIT_OMAHA])
@pytest.mark.parametrize("part", range(PARTS))
def test_it_agrees_with_pokerkit_or_differs_only_by_a_documented_rule(part: int, game: str) -> None:
    first, last = HANDS_OF[game] * part // PARTS, HANDS_OF[game] * (part + 1) // PARTS
    hands = last - first
    found = differential_run(hands, first_seed=first, game=game)
    assert found["hands"] == hands
    assert found["decisions"] > 3 * hands  # most hands have several decisions
    assert found["rule 9"] < hands / 4  # most hands are compared to the end
    assert found["rule 4"] < found["decisions"] / 50  # reopening stays a rare corner case


@pytest.mark.exhaustive
@pytest.mark.parametrize("game", [NO_LIMIT_HOLDEM, POT_LIMIT_OMAHA])
@pytest.mark.parametrize("part", range(PARTS))
def test_straddles_bomb_pots_and_two_run_outs_agree_with_pokerkit_or_a_rule(
    part: int, game: str
) -> None:
    hands = HANDS_OF[game] // 2 // PARTS  # half as many: each also plays without the options
    found = differential_run(
        hands, first_seed=HANDS_OF[game] + part * hands, game=game, home_options=True
    )
    assert found["hands"] == hands
    assert found["run 2"] > hands / 10  # many hands are run twice, compared to the last chip
    assert found["run 1"] > hands / 10  # and many where someone declined
    assert found["rule 9"] < hands / 4
    assert found["rule 4"] < found["decisions"] / 50


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_hand_replays_identically_in_both_engines_when_seeded(seed: int) -> None:
    assert play_both(seed) == play_both(seed)


def test_a_difference_no_rule_explains_fails_naming_the_hand() -> None:
    ours = new_hand([100, 100, 100], 0, 1, 2, deck=new_deck(Random(1)))
    order = [1, 2, 0]
    pk = _pokerkit_state(ours, order)
    pk.fold()  # PokerKit's first player folds, Felt's has not: nothing explains it
    with pytest.raises(AssertionError, match="seed 7"):
        _compare_decision(pk, ours, order, "seed 7")

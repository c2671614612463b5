"""The bot player: always legal, sensible, and blind to cards it may not see."""

from __future__ import annotations

import copy
import time
from collections import Counter
from random import Random
from statistics import median
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, Call, Check, Fold, RaiseTo
from engine.betting import apply_action, legal_actions
from engine.bots import choose_action, read_spot
from engine.cards import card_str
from engine.deal import new_hand
from engine.state import HandState
from engine.view import view
from tests.engine.dealing import deal, offered_actions, play
from tests.engine.strategies import hands


class Dice(Random):
    """A Random whose coin flips (``random()``) always land on ``roll``.

    Equity sampling and size choices still draw real (seeded) random bits,
    so a test can force or forbid a bluff or a slow-play and nothing else.
    """

    def __init__(self, roll: float, seed: int = 0) -> None:
        super().__init__(seed)
        self.roll = roll

    def random(self) -> float:
        return self.roll

    def getrandbits(self, k: int) -> int:
        # defined so that Random's choice() keeps drawing from bits, not from random()
        return super().getrandbits(k)


NEVER = 0.999  # no bluff, no slow-play
ALWAYS = 0.0  # every bluff and slow-play


def decide(state: HandState, rng: Random) -> Action:
    return choose_action(view(state, state.actor), rng)


def assert_legal(state: HandState, action: Action) -> None:
    legal = legal_actions(state)
    if isinstance(action, Check):
        assert legal.can_check
    elif isinstance(action, Call):
        assert not legal.can_check and legal.call_amount > 0
    elif isinstance(action, Fold):
        assert legal.can_fold
    else:
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        assert legal.min_raise_to <= action.amount <= legal.max_raise_to


def play_with_bots(state: HandState, rng: Random) -> HandState:
    """Let bots play the hand out, checking every action and the chip count."""
    chips = sum(state.starting_stacks[s] or 0 for s in range(state.seat_count))
    while not state.is_over:
        action = decide(state, rng)
        assert_legal(state, action)
        state = apply_action(state, action)
        in_middle = sum(p.amount for p in state.pots) + sum(state.bets)
        assert sum(state.stacks) + in_middle == chips  # rule 16
    assert sum(state.stacks) == chips
    return state


# --- legality and chips -------------------------------------------------------


def test_six_bots_play_300_hands_with_legal_actions_and_chips_conserved() -> None:
    rng = Random(2026)
    stacks: list[int] = [1500] * 6
    button = 0
    for _ in range(300):
        if sum(chips > 0 for chips in stacks) < 2:
            stacks = [rng.randint(40, 3000) for _ in range(6)]
        button = next(s % 6 for s in range(button + 1, button + 7) if stacks[s % 6])
        state = new_hand(
            [chips or None for chips in stacks], button, small_blind=10, big_blind=20, rng=rng
        )
        total = sum(stacks)
        stacks = list(play_with_bots(state, rng).stacks)
        assert sum(stacks) == total


@settings(max_examples=120, deadline=None)
@given(hands(), st.integers(0, 2**32))
def test_bots_choose_legal_actions_in_any_hand(state: HandState, seed: int) -> None:
    play_with_bots(state, Random(seed))


@pytest.mark.parametrize(("game", "hands"), [("nlhe", 30), ("plo", 20)])
def test_a_decision_takes_well_under_20_ms(game: str, hands: int) -> None:
    rng = Random(3)
    durations = []
    for _ in range(hands):
        state = new_hand([1000] * 6, 0, small_blind=10, big_blind=20, rng=rng, game=game)
        while not state.is_over:
            # The process's own processor time: the engine's run is niced beside the
            # other runs of make test, and the clock on the wall counted their turns
            # too (a median of 6.4 ms once, at load 10).
            started = time.process_time()
            action = decide(state, rng)
            durations.append(time.process_time() - started)
            state = apply_action(state, action)
    assert median(durations) < 0.005


# --- decisions a player would notice --------------------------------------------


def test_aces_facing_a_raise_are_never_folded() -> None:
    for seat_to_act in (4, 0, 1, 2):
        state = deal(
            [2000] * 6, button=0, holes={seat_to_act: "AsAh"}, small_blind=10, big_blind=20
        )
        while state.actor != seat_to_act:
            state = play(state, 200 if state.current_bet == 20 else "c")
        for seed in range(40):
            assert isinstance(decide(state, Random(seed)), Call | RaiseTo)


def test_aces_facing_an_all_in_call_it() -> None:
    state = deal([1500, 1500], button=0, holes={1: "AsAh"}, small_blind=10, big_blind=20)
    state = play(state, 1500)
    for seed in range(40):
        assert decide(state, Random(seed)) == Call()


def test_seven_deuce_facing_an_all_in_folds() -> None:
    heads_up = deal([1500, 1500], button=0, holes={1: "7h2d"}, small_blind=10, big_blind=20)
    six_handed = deal([1500] * 6, button=0, holes={4: "7h2d"}, small_blind=10, big_blind=20)
    for state in (play(heads_up, 1500), play(six_handed, 1500)):
        for seed in range(40):
            assert decide(state, Random(seed)) == Fold()


def test_the_big_blind_checks_its_option_with_junk() -> None:
    state = deal([1000] * 3, button=0, holes={2: "7h2d"}, small_blind=10, big_blind=20)
    state = play(state, "c", "c")
    for seed in range(40):
        assert decide(state, Random(seed)) == Check()


def test_the_nuts_on_the_river_bet_more_often_than_they_check() -> None:
    state = deal([1000, 1000], button=0, holes={0: "AsKs", 1: "7c7d"}, board="QsJsTs2h3d")
    state = play(state, "c", "x", "x", "x", "x", "x")  # preflop, flop, turn checked through
    state = play(state, "x")  # the big blind checks the river to the button
    assert state.street == "river" and state.actor == 0
    actions = Counter(type(decide(state, Random(seed))).__name__ for seed in range(200))
    assert actions["RaiseTo"] > actions["Check"]


def test_the_nuts_facing_a_river_bet_raise_more_often_than_they_call() -> None:
    state = deal([1000, 1000], button=0, holes={0: "AsKs", 1: "7c7d"}, board="QsJsTs2h3d")
    state = play(state, "c", "x", "x", "x", "x", "x", 100)
    actions = Counter(type(decide(state, Random(seed))).__name__ for seed in range(200))
    assert actions["RaiseTo"] > actions["Call"] and actions["Fold"] == 0


def test_a_middling_hand_raises_more_often_from_the_button_than_first_to_act() -> None:
    first = deal([1000] * 6, button=0, holes={3: "Qs9d"}, small_blind=10, big_blind=20)
    on_button = play(
        deal([1000] * 6, button=0, holes={0: "Qs9d"}, small_blind=10, big_blind=20), "f", "f", "f"
    )
    assert first.actor == 3 and on_button.actor == 0
    early = sum(isinstance(decide(first, Random(seed)), RaiseTo) for seed in range(100))
    late = sum(isinstance(decide(on_button, Random(seed)), RaiseTo) for seed in range(100))
    assert late > early + 30


def test_a_value_bet_is_half_the_pot_or_the_pot() -> None:
    state = deal(
        [5000, 5000],
        button=0,
        holes={0: "AsAh", 1: "7c2d"},
        board="AdAc8h",
        small_blind=10,
        big_blind=20,
    )
    state = play(state, "c", "x", "x")  # heads-up: the button acts last after the flop
    pot = sum(p.amount for p in state.pots)
    sizes = {decide(state, Dice(NEVER, seed)) for seed in range(40)}
    assert sizes == {RaiseTo(pot // 2), RaiseTo(pot)}


def test_a_raise_that_commits_most_of_the_stack_goes_all_in() -> None:
    state = deal(
        [220, 1000],
        button=0,
        holes={0: "AsAh", 1: "7c2d"},
        board="AdAc8h",
        small_blind=10,
        big_blind=20,
    )
    state = play(state, 100, "c", "x")  # pot 200 and 120 behind: even half the pot commits it
    for seed in range(20):
        assert decide(state, Dice(NEVER, seed)) == RaiseTo(120)


def test_a_weak_hand_facing_a_big_bet_folds_without_a_bluff() -> None:
    state = deal(
        [1000, 1000],
        button=0,
        holes={0: "7c2d", 1: "AsAh"},
        board="KhQd9s",
        small_blind=10,
        big_blind=20,
    )
    state = play(state, "c", "x", 40)  # the big blind leads the flop into the button
    assert decide(state, Dice(NEVER)) == Fold()
    assert isinstance(decide(state, Dice(ALWAYS)), RaiseTo)  # a rare bluff-raise


def test_a_drawing_hand_calls_a_small_bet_at_a_good_price() -> None:
    state = deal(
        [1000, 1000],
        button=0,
        holes={0: "AhKh", 1: "7c2d"},
        board="Qh8h3c",
        small_blind=10,
        big_blind=20,
    )
    state = play(state, "c", "x", 20)  # a half-pot bet: the price is 20/80
    for seed in range(20):
        assert decide(state, Dice(NEVER, seed)) == Call()


def test_a_weak_hand_checked_to_checks_or_sometimes_bluffs() -> None:
    state = deal(
        [1000, 1000],
        button=0,
        holes={0: "7c2d", 1: "AsAh"},
        board="KhQd9s",
        small_blind=10,
        big_blind=20,
    )
    state = play(state, "c", "x", "x")
    assert decide(state, Dice(NEVER)) == Check()
    assert decide(state, Dice(ALWAYS)) == RaiseTo(20)  # half the pot of 40


def test_a_strong_hand_sometimes_slow_plays() -> None:
    state = deal(
        [1000, 1000],
        button=0,
        holes={0: "AsAh", 1: "7c2d"},
        board="AdAc8h",
        small_blind=10,
        big_blind=20,
    )
    checked_to = play(state, "c", "x", "x")
    facing_bet = play(state, "c", "x", 20)
    assert decide(checked_to, Dice(ALWAYS)) == Check()
    assert decide(facing_bet, Dice(ALWAYS)) == Call()
    preflop = deal([1000, 1000], button=0, holes={0: "AsAh"}, small_blind=10, big_blind=20)
    assert decide(preflop, Dice(ALWAYS)) == Call()  # the button just completes


def test_a_playable_hand_calls_a_raise_it_is_not_strong_enough_to_reraise() -> None:
    state = deal([1000, 1000], button=0, holes={1: "KsJs"}, small_blind=10, big_blind=20)
    state = play(state, 40)  # a min-raise: 20 more into 60
    decisions = Counter(decide(state, Dice(NEVER, seed)) for seed in range(40))
    assert decisions[Call()] >= 30  # equity is sampled, so a borderline hand varies a little


def test_a_strong_hand_calls_when_it_may_not_raise() -> None:
    state = deal(
        [1000, 500], button=0, holes={0: "AsAh"}, board="AdAc8h", small_blind=10, big_blind=20
    )
    state = play(state, "c", "x", 480)  # the big blind shoves the flop: only call or fold
    assert legal_actions(state).min_raise_to is None
    assert decide(state, Dice(NEVER)) == Call()


@pytest.mark.parametrize(("game", "seed", "hands"), [("nlhe", 4, 300), ("plo", 5, 150)])
def test_a_bot_wins_chips_from_players_who_act_at_random(game: str, seed: int, hands: int) -> None:
    rng = Random(seed)
    won = 0
    for number in range(hands):
        state = new_hand([1000] * 6, number % 6, small_blind=10, big_blind=20, rng=rng, game=game)
        while not state.is_over:
            if state.actor == 0:
                action = decide(state, rng)
            else:  # mostly check or call, sometimes anything offered
                options = offered_actions(state, rng.randrange(1000))
                action = options[0] if rng.random() < 0.6 else rng.choice(options)
            state = apply_action(state, action)
        won += state.stacks[0] - 1000
    assert won > 0


# --- what a bot may look at -----------------------------------------------------


def test_it_refuses_to_act_out_of_turn() -> None:
    state = deal([1000] * 3, button=0)
    waiting = (state.actor + 1) % 3  # type: ignore[operator]
    with pytest.raises(ValueError, match="only act on the view of the seat to act"):
        choose_action(view(state, waiting), Random(0))
    with pytest.raises(ValueError, match="only act on the view of the seat to act"):
        choose_action(view(state, None), Random(0))
    over = play(state, "f", "f")
    with pytest.raises(ValueError, match="no decision"):
        choose_action(view(over, 2), Random(0))


def leaky(state: HandState, seen: dict[str, Any]) -> dict[str, Any]:
    """``seen`` plus everything the viewer must not know: every hole card and the deck."""
    leaked = copy.deepcopy(seen)
    for seat in leaked["seats"]:
        seat["cards"] = [card_str(c) for c in state.holes[seat["seat"]]] or None
    for event in leaked["log"]:
        if event["kind"] == "hole_cards_dealt":
            event["cards"] = [card_str(c) for c in state.holes[event["seat"]]]
    leaked["deck"] = [card_str(c) for c in state.deck]
    return leaked


def test_its_decisions_do_not_change_when_hidden_cards_are_added_to_the_view() -> None:
    rng = Random(11)
    compared = 0
    for _ in range(40):
        state = new_hand([1000] * 6, rng.randrange(6), small_blind=10, big_blind=20, rng=rng)
        while not state.is_over:
            seen = view(state, state.actor)
            seed = rng.getrandbits(32)
            honest = choose_action(seen, Random(seed))
            assert choose_action(leaky(state, seen), Random(seed)) == honest
            compared += 1
            state = apply_action(state, honest)
    assert compared > 200


def test_it_reads_its_spot_only_from_its_own_view() -> None:
    state = deal(
        [1000, 800, 600], button=0, holes={0: "AsKd"}, board="Qh8h3c", small_blind=10, big_blind=20
    )
    state = play(state, 60, "c", "c", 100)  # seat 1 leads the flop for 100
    spot = read_spot(view(state, state.actor))
    assert state.actor == 2
    assert spot.hole == state.holes[2] and spot.board == state.board[:3]
    assert (spot.opponents, spot.raises, spot.pot, spot.call_amount) == (2, 1, 280, 100)
    assert spot.lateness == 0.5  # in the middle of the three live players after the flop
    assert spot.price == pytest.approx(100 / 380)

"""The bot player in Pot-Limit Omaha: always legal within the pot limit, choosy with
its four cards before the flop, and playing made hands and draws after it."""

from __future__ import annotations

from collections import Counter
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Call, Check, Fold, RaiseTo
from engine.betting import apply_action, legal_actions
from engine.bots import choose_action, omaha_start_strength, read_spot
from engine.cards import cards
from engine.deal import new_hand
from engine.games import POT_LIMIT_OMAHA
from engine.state import HandState
from engine.view import view
from tests.engine.dealing import deal, play
from tests.engine.strategies import hands
from tests.engine.test_bots import ALWAYS, NEVER, Dice, decide, leaky, play_with_bots

PLO = POT_LIMIT_OMAHA


def omaha(state: HandState) -> HandState:
    """The same table, stacks, blinds and deck, dealt as Pot-Limit Omaha."""
    return new_hand(
        list(state.starting_stacks),
        state.button,
        state.small_blind,
        state.big_blind,
        state.ante,
        deck=state.deck,
        game=PLO,
    )


# --- legality and chips -------------------------------------------------------


def test_six_bots_play_150_omaha_hands_with_legal_actions_and_chips_conserved() -> None:
    rng = Random(2027)
    stacks: list[int] = [1500] * 6
    button = 0
    for _ in range(150):
        if sum(chips > 0 for chips in stacks) < 2:
            stacks = [rng.randint(40, 3000) for _ in range(6)]
        button = next(s % 6 for s in range(button + 1, button + 7) if stacks[s % 6])
        state = new_hand([chips or None for chips in stacks], button, 10, 20, rng=rng, game=PLO)
        total = sum(stacks)
        stacks = list(play_with_bots(state, rng).stacks)
        assert sum(stacks) == total


@settings(max_examples=100, deadline=None)
@given(hands().map(omaha), st.integers(0, 2**32))
def test_bots_choose_legal_actions_in_any_omaha_hand(state: HandState, seed: int) -> None:
    play_with_bots(state, Random(seed))


# --- before the flop ------------------------------------------------------------


def test_aces_and_kings_double_suited_facing_a_raise_always_play() -> None:
    for seat_to_act in (4, 0, 1, 2):
        state = deal(
            [2000] * 6,
            button=0,
            holes={seat_to_act: "AsAhKsKh"},
            game=PLO,
            small_blind=10,
            big_blind=20,
        )
        while state.actor != seat_to_act:
            state = play(state, legal_actions(state).max_raise_to or "c")  # raise the pot
        assert read_spot(view(state, seat_to_act)).raises >= 1
        for seed in range(40):
            assert isinstance(decide(state, Random(seed)), Call | RaiseTo)


def test_a_ragged_rainbow_hand_folds_to_a_raise() -> None:
    for seat_to_act in (4, 0, 2):
        state = deal(
            [2000] * 6,
            button=0,
            holes={seat_to_act: "2c7d9hQs"},
            game=PLO,
            small_blind=10,
            big_blind=20,
        )
        while state.actor != seat_to_act:
            state = play(state, 70 if state.current_bet == 20 else "c")
        for seed in range(40):
            assert decide(state, Random(seed)) == Fold()


def test_the_big_blind_checks_its_option_with_a_ragged_hand() -> None:
    state = deal([1000] * 3, button=0, holes={2: "2c7d9hQs"}, game=PLO)
    state = play(state, "c", "c")
    for seed in range(20):
        assert decide(state, Random(seed)) == Check()


def test_a_pot_raise_is_the_pot_limit_not_the_whole_stack() -> None:
    state = deal(
        [5000] * 4, button=0, holes={3: "AsAhKsKh"}, game=PLO, small_blind=10, big_blind=20
    )
    legal = legal_actions(state)
    assert state.actor == 3 and legal.max_raise_to == 70 < 5000  # 20 called, then 50 more
    assert decide(state, Dice(NEVER)) == RaiseTo(70)
    assert decide(state, Dice(ALWAYS)) == Call()  # a slow-play just calls


def first_decisions(rng: Random, count: int) -> list[tuple[float, str]]:
    """The first player's preflop decision in ``count`` six-handed Omaha deals, with the
    strength of its four cards."""
    decisions = []
    for _ in range(count):
        state = new_hand([2000] * 6, 0, 10, 20, rng=rng, game=PLO)
        strength = omaha_start_strength(state.holes[state.actor])  # type: ignore[index]
        decisions.append((strength, type(decide(state, rng)).__name__))
    return decisions


def test_strong_starting_hands_raise_more_and_fold_less_than_weak_ones() -> None:
    decisions = sorted(first_decisions(Random(8), 600))
    weak, strong = decisions[:150], decisions[-150:]
    weak_actions = Counter(action for _, action in weak)
    strong_actions = Counter(action for _, action in strong)
    assert strong_actions["RaiseTo"] > weak_actions["RaiseTo"] + 30
    assert weak_actions["Fold"] > strong_actions["Fold"] + 100
    assert weak_actions["Fold"] > 120  # most of the weakest quarter is thrown away


def test_the_start_strength_prefers_what_makes_four_cards_work_together() -> None:
    ordered = [
        "AsAhKsKh",  # aces and kings, double-suited
        "KsQsJhTh",  # a double-suited rundown of high cards
        "JsTs9h8h",  # a lower one
        "AsAd7c2h",  # aces with two rags, no suit
        "6c5d4h3s",  # a low rainbow rundown
        "2c7d9hQs",  # unconnected, unsuited, unpaired
        "2c2d2h2s",  # four of a rank: only two of them can play
    ]
    strengths = [omaha_start_strength(cards(hand)) for hand in ordered]
    assert strengths == sorted(strengths, reverse=True)
    assert omaha_start_strength(cards("AsKs7d2c")) > omaha_start_strength(cards("AsKd7h2c"))
    assert omaha_start_strength(cards("JsTs9h8h")) > omaha_start_strength(cards("JsTs9s8s"))


# --- after the flop ---------------------------------------------------------------


def test_the_omaha_nuts_on_the_river_bet_more_often_than_they_check() -> None:
    # seat 0's As Ks with the board's Qs Js Ts: a royal flush
    state = deal(
        [1000, 1000],
        button=0,
        holes={0: "AsKs7c2d", 1: "QdQh8c8d"},
        board="QsJsTs2h3d",
        game=PLO,
    )
    state = play(state, "c", "x", "x", "x", "x", "x", "x")
    assert state.street == "river" and state.actor == 0
    actions = Counter(type(decide(state, Random(seed))).__name__ for seed in range(100))
    assert actions["RaiseTo"] > actions["Check"]


def test_one_spade_held_is_no_flush_facing_a_pot_bet() -> None:
    # seat 0 holds the ace of spades on a four-spade board, but Omaha needs two spades
    # (rule 21): it has ace high and nothing else, and folds to a pot-sized river bet
    state = deal(
        [1000, 1000],
        button=0,
        holes={0: "As7d4c3h", 1: "KdKh9c8c"},
        board="Ks9s5s2sJc",
        game=PLO,
        small_blind=10,
        big_blind=20,
    )
    state = play(state, "c", "x", "x", "x", "x", "x", 40)  # the big blind bets the pot
    assert state.actor == 0 and legal_actions(state).call_amount == 40
    assert decide(state, Dice(NEVER)) == Fold()


def test_a_big_draw_calls_a_half_pot_bet_on_the_flop() -> None:
    # the nut flush draw (Ah Jh to the board's two hearts) and straight draws (J T 9 to Q 8)
    state = deal(
        [1000, 1000],
        button=0,
        holes={0: "AhJhTc9d", 1: "2c2d7s7d"},
        board="Qh8h3c",
        game=PLO,
        small_blind=10,
        big_blind=20,
    )
    state = play(state, "c", "x", 20)  # the big blind leads half the pot of 40
    for seed in range(20):
        assert isinstance(decide(state, Dice(NEVER, seed)), Call | RaiseTo)


def test_a_bet_never_exceeds_the_pot_after_the_flop() -> None:
    state = deal(
        [5000, 5000],
        button=0,
        holes={0: "KhKd8s7c", 1: "2c3d8h9s"},
        board="Kc7d2h",
        game=PLO,
        small_blind=10,
        big_blind=20,
    )
    state = play(state, "c", "x", "x")  # top set, checked to on the button, in a pot of 40
    sizes = {decide(state, Dice(NEVER, seed)) for seed in range(40)}
    assert sizes <= {RaiseTo(20), RaiseTo(40)} and RaiseTo(40) in sizes
    assert legal_actions(state).max_raise_to == 40


# --- what a bot may look at -----------------------------------------------------


def test_omaha_decisions_do_not_change_when_hidden_cards_are_added_to_the_view() -> None:
    rng = Random(12)
    compared = 0
    for _ in range(25):
        state = new_hand([1000] * 6, rng.randrange(6), 10, 20, rng=rng, game=PLO)
        while not state.is_over:
            seen = view(state, state.actor)
            assert len(seen["hole_cards"]) == 4 and seen["game"] == PLO
            seed = rng.getrandbits(32)
            honest = choose_action(seen, Random(seed))
            assert choose_action(leaky(state, seen), Random(seed)) == honest
            compared += 1
            state = apply_action(state, honest)
    assert compared > 100


def test_it_reads_an_omaha_spot_from_its_own_view() -> None:
    state = deal([600, 800, 1000], button=0, holes={0: "AsKdQhJc"}, game=PLO)
    spot = read_spot(view(state, 0))  # the button acts first three-handed
    assert spot.game == PLO and spot.hole == cards("AsKdQhJc")
    assert (spot.all_in_to, spot.max_raise_to) == (600, legal_actions(state).max_raise_to)
    held_em = read_spot(view(deal([1000, 800, 600], button=0), 0))
    assert held_em.game == "nlhe" and len(held_em.hole) == 2

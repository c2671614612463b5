"""Omaha equity: exact enumeration checked against slow independent paths and PokerKit,
and estimates whose stated standard errors are checked against the exact values."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from math import comb, sqrt
from random import Random

import numpy as np
import pytest
from pokerkit import Card, Deck, OmahaHoldemHand, calculate_equities

from engine import (
    EquityEstimate,
    card_str,
    equity,
    equity_vs_random,
    estimate_equity,
    evaluate_omaha,
    evaluate_omaha_batch,
)
from engine.cards import cards
from engine.equity import EXACT_LIMITS, SAMPLES


def slow_equity(
    hands: Sequence[Sequence[int]], board: Sequence[int], dead: Sequence[int] = ()
) -> list[float]:
    """Every run-out, one ``evaluate_omaha`` call per hand: obviously right, fast enough
    for a flop or a turn."""
    seen = {*board, *dead, *(c for hand in hands for c in hand)}
    unseen = [c for c in range(52) if c not in seen]
    won = [0.0] * len(hands)
    runouts = list(itertools.combinations(unseen, 5 - len(board)))
    for runout in runouts:
        values = [evaluate_omaha(hand, [*board, *runout]) for hand in hands]
        winners = [i for i, v in enumerate(values) if v == max(values)]
        for i in winners:
            won[i] += 1 / len(winners)
    return [w / len(runouts) for w in won]


def pokerkit_turn_equity(hands: Sequence[str], board: str) -> list[float]:
    """Every river card on a turn board, each hand valued and compared by PokerKit's
    OmahaHoldemHand: an evaluator and an enumeration independent of Felt's."""
    seen = set(cards("".join(hands) + board))
    won = [0.0] * len(hands)
    rivers = [card_str(c) for c in range(52) if c not in seen]
    for river in rivers:
        made = [OmahaHoldemHand.from_game(hole, board + river) for hole in hands]
        best = max(made)
        winners = [i for i, hand in enumerate(made) if not hand < best]
        for i in winners:
            won[i] += 1 / len(winners)
    return [w / len(rivers) for w in won]


@pytest.mark.parametrize(
    ("hands", "board"),
    [
        (["AsAhKsKh", "JdTd9c8c"], "Qd7d2c"),  # aces double-suited against a wrap and a draw
        (["AsKsQdJd", "7h7c6h5c", "AdAc2h3h"], "Ts9s4h"),
        (["AhKh2c3d", "QsQdJsJd"], "Kd8h4h6c"),
        (["9s8s7d6d", "AcAdKcQh", "5h5s4c4h", "JhTh2s2d"], "7s6h2c3s"),
    ],
)
def test_flop_and_turn_equity_match_a_slow_enumeration(hands: list[str], board: str) -> None:
    holes = [cards(h) for h in hands]
    assert equity(holes, cards(board)) == pytest.approx(slow_equity(holes, cards(board)), abs=1e-12)


def test_dead_cards_leave_the_omaha_deck() -> None:
    holes = [cards("AsAhKsKh"), cards("JdTd9c8c")]
    board, dead = cards("Qd7d2c"), cards("Kd3d4d")
    with_dead = equity(holes, board, dead)
    assert with_dead == pytest.approx(slow_equity(holes, board, dead), abs=1e-12)
    assert with_dead[1] < equity(holes, board)[1]  # three of the wrap's diamonds are gone


@pytest.mark.parametrize(
    ("hands", "board"),
    [
        (["AsAhKsKh", "JdTd9c8c"], "Qd7d2c3s"),
        (["AhKh2c3d", "QsQdJsJd", "9c8c7s6s"], "Kd8h4h6c"),
        (["AcAd5h4h", "KcKd5s4s"], "QhJh5d4d"),  # a chop is likely: both hold the same two pair
    ],
)
def test_turn_equity_matches_pokerkit_river_by_river(hands: list[str], board: str) -> None:
    ours = equity([cards(h) for h in hands], cards(board))
    assert ours == pytest.approx(pokerkit_turn_equity(hands, board), abs=1e-12)


@pytest.fixture
def seeded_global_random() -> Iterator[None]:
    """PokerKit samples with the random module's global generator: seeded for the test
    and restored after. Its deck is a list made from a set, whose order follows the
    process's hash seed, so the same seed still draws other cards from run to run:
    the sample is large enough (1,200) for four standard errors to hold."""
    state = random.getstate()
    random.seed(2026)
    yield
    random.setstate(state)


@pytest.mark.exhaustive
@pytest.mark.usefixtures("seeded_global_random")
@pytest.mark.parametrize(
    ("hands", "board"),
    [
        (["AsAhKsKh", "JdTd9c8c"], "Qd7d2c"),
        (["AsKsQdJd", "7h7c6h5c", "AdAc2h3h"], "Ts9s4h"),
        (["AsAhKsKh", "JdTd9c8c", "7c6c5h4h"], ""),
    ],
)
def test_pokerkit_calculate_equities_agrees_within_its_sampling_error(
    hands: list[str], board: str
) -> None:
    samples = 1200  # at 300, runs with other hash seeds strayed past four standard errors
    theirs = calculate_equities(
        [{frozenset(Card.parse(h))} for h in hands],
        Card.parse(board),
        4,
        5,
        Deck.STANDARD,
        (OmahaHoldemHand,),
        sample_count=samples,
    )
    ours = estimate_equity([cards(h) for h in hands], cards(board), rng=Random(3))
    for mine, pokerkit, error in zip(ours.shares, theirs, ours.standard_errors, strict=True):
        pokerkit_error = sqrt(max(pokerkit * (1 - pokerkit), 0.01) / samples)
        assert abs(mine - pokerkit) <= 4 * sqrt(pokerkit_error**2 + error**2), (mine, pokerkit)


# --- exact where cheap, estimated where not --------------------------------------


def test_a_flop_or_turn_is_counted_exactly() -> None:
    holes = [cards("AsAhKsKh"), cards("JdTd9c8c"), cards("7c6c5h4h")]
    for board in (cards("Qd7d2c"), cards("Qd7d2c3s")):
        result = estimate_equity(holes, board)
        unseen = 52 - 12 - len(board)
        assert result == EquityEstimate(
            equity(holes, board), True, (0.0, 0.0, 0.0), comb(unseen, 5 - len(board))
        )


def test_before_the_flop_the_shares_are_estimated_with_their_standard_errors() -> None:
    holes = [cards("AsAhKsKh"), cards("JdTd9c8c")]
    result = estimate_equity(holes, rng=Random(1))
    assert not result.exact and result.runouts == SAMPLES
    assert sum(result.shares) == pytest.approx(1, abs=1e-12)
    # a share of the pot lies in [0, 1], so its standard deviation is at most 1/2
    assert all(0 < e <= 0.5 / sqrt(SAMPLES) for e in result.standard_errors)
    assert comb(44, 5) * 2 > EXACT_LIMITS["plo"]  # the million boards the estimate avoids


@pytest.mark.parametrize(
    ("hands", "board", "dead"),
    [
        (["AsAhKsKh", "JdTd9c8c", "7c6c5h4h", "QsQcJhTs", "2h3h4d5d", "KdKcAc9s"], "", ""),
        # 201,376 boards: the exact count goes a chunk of boards at a time
        (["AsAhKsKh", "JdTd9c8c", "7c6c5h4h", "QsQcJhTs", "2h3h4d5d"], "", ""),
        (["AsAhKsKh", "JdTd9c8c"], "", "2c3c4c5c6c7cTcJcQcKc2d3d4d5d6d7d"),
        (["AsAhKsKh", "JdTd9c8c", "7c6c5h4h"], "Qd7d2c", ""),
        (["AsKsQdJd", "7h7c6h5c", "AdAc2h3h"], "Ts9s4h8d", ""),
    ],
)
def test_an_estimate_lies_within_four_standard_errors_of_the_exact_value(
    hands: list[str], board: str, dead: str
) -> None:
    holes, known, out = [cards(h) for h in hands], cards(board), cards(dead)
    exact = equity(holes, known, out)
    assert sum(exact) == pytest.approx(1, abs=1e-12)
    for seed in range(3):
        # exact_limit=0 samples even where counting is cheap, so both can be compared
        estimate = estimate_equity(holes, known, out, exact_limit=0, rng=Random(seed))
        assert not estimate.exact
        errors = estimate.standard_errors
        for share, mine, error in zip(exact, estimate.shares, errors, strict=True):
            assert abs(mine - share) <= 4 * error, (seed, share, mine, error)


def test_the_stated_standard_error_is_the_spread_of_repeated_estimates() -> None:
    holes, board = [cards("AsAhKsKh"), cards("JdTd9c8c")], cards("Qd7d2c")
    exact = equity(holes, board)[0]
    runs = [
        estimate_equity(holes, board, samples=400, exact_limit=0, rng=Random(seed))
        for seed in range(300)
    ]
    estimates = np.array([run.shares[0] for run in runs])
    stated = np.array([run.standard_errors[0] for run in runs])
    assert 0.8 < estimates.std() / stated.mean() < 1.25
    within_two = np.mean(np.abs(estimates - exact) <= 2 * stated)
    assert 0.9 < within_two < 0.99  # about 95% for a normal estimate


def test_the_same_seed_gives_the_same_estimate() -> None:
    holes = [cards("AsAhKsKh"), cards("JdTd9c8c")]
    first = estimate_equity(holes, samples=2_000, rng=Random(9))
    assert estimate_equity(holes, samples=2_000, rng=np.random.default_rng(7)) != first
    assert estimate_equity(holes, samples=2_000, rng=Random(9)) == first
    unseeded = estimate_equity(holes, samples=2_000)
    assert not unseeded.exact and sum(unseeded.shares) == pytest.approx(1, abs=1e-12)


def test_hold_em_is_counted_exactly_unless_told_to_sample() -> None:
    holes = [cards("AsAh"), cards("KdKc"), cards("7h6h")]
    exact = estimate_equity(holes)
    assert exact.exact and exact.shares == equity(holes)
    sampled = estimate_equity(holes, exact_limit=0, rng=Random(4))
    assert not sampled.exact
    for share, mine, error in zip(
        exact.shares, sampled.shares, sampled.standard_errors, strict=True
    ):
        assert abs(mine - share) <= 4 * error


@pytest.mark.parametrize(
    ("hands", "samples", "message"),
    [
        (["AsAhKsKh", "JdTd"], SAMPLES, r"as many hole cards as the others, not \[2, 4\]"),
        (["AsAhKsKh", "JdTd9c"], SAMPLES, r"2 hole cards \(Hold'em\) or 4 \(Omaha\), not 3"),
        (["AsAhKsKh", "JdTd9c8c"], 1, "at least 2 samples, not 1"),
    ],
)
def test_estimates_refuse_impossible_requests(hands: list[str], samples: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        estimate_equity([cards(h) for h in hands], samples=samples, rng=Random(0))


def test_equity_refuses_hands_of_different_games() -> None:
    with pytest.raises(ValueError, match="as many hole cards as the others"):
        equity([cards("AsAh"), cards("KdKcQdQc")])


# --- against random hands (the bots' strength) ----------------------------------


def exact_vs_one_random_omaha_hand(hole: Sequence[int], board: Sequence[int]) -> float:
    """On the river: every four cards an opponent could hold, valued in one batch."""
    unseen = [c for c in range(52) if c not in {*hole, *board}]
    villains = np.array(list(itertools.combinations(unseen, 4)))
    theirs = evaluate_omaha_batch(villains, np.tile(board, (len(villains), 1)))
    mine = evaluate_omaha(hole, board)
    return float(((mine > theirs) + 0.5 * (mine == theirs)).mean())


@pytest.mark.parametrize("rng", [Random(5), np.random.default_rng(5)], ids=["Random", "numpy"])
def test_omaha_equity_against_a_random_hand_lands_near_the_exact_value(
    rng: Random | np.random.Generator,
) -> None:
    hole, board = cards("AhKh9c8d"), cards("QhJh2h7s3c")
    exact = exact_vs_one_random_omaha_hand(hole, board)
    estimate = equity_vs_random(hole, board, opponents=1, samples=20_000, rng=rng)
    assert estimate == pytest.approx(exact, abs=4 * 0.5 / sqrt(20_000))


def test_omaha_equity_against_random_hands_falls_with_more_of_them() -> None:
    hole = cards("AsAhKsKh")
    one = equity_vs_random(hole, opponents=1, samples=4_000, rng=Random(3))
    five = equity_vs_random(hole, opponents=5, samples=4_000, rng=Random(3))
    nine = equity_vs_random(hole, opponents=9, samples=1_000, rng=Random(3))
    assert 0.6 < one < 0.8 and five < one - 0.3 and nine < five
    assert equity_vs_random(hole, opponents=2, samples=500, rng=Random(1)) == equity_vs_random(
        hole, opponents=2, samples=500, rng=Random(1)
    )

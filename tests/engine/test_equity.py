"""All-in equity: exact enumeration, checked against slow independent paths."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from random import Random

import numpy as np
import pytest

from engine import equity, equity_vs_random, evaluate, evaluate_batch
from engine.cards import cards


def slow_equity(
    hands: Sequence[Sequence[int]], board: Sequence[int], dead: Sequence[int] = ()
) -> list[float]:
    """Every run-out, one ``evaluate`` call per hand: obviously right, only fast enough for
    a board with one or two cards to come."""
    seen = {*board, *dead, *(c for hand in hands for c in hand)}
    unseen = [c for c in range(52) if c not in seen]
    won = [0.0] * len(hands)
    runouts = list(itertools.combinations(unseen, 5 - len(board)))
    for runout in runouts:
        values = [evaluate([*hand, *board, *runout]) for hand in hands]
        winners = [i for i, v in enumerate(values) if v == max(values)]
        for i in winners:
            won[i] += 1 / len(winners)
    return [w / len(runouts) for w in won]


def batch_equity_preflop(hands: Sequence[Sequence[int]]) -> list[float]:
    """Every five-card board from itertools, scored with evaluate_batch: independent of
    equity()'s own enumeration and key arithmetic."""
    seen = {c for hand in hands for c in hand}
    unseen = [c for c in range(52) if c not in seen]
    boards = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(unseen, 5)), dtype=np.int8
    ).reshape(-1, 5)
    values = np.stack(
        [
            evaluate_batch(np.column_stack((np.tile(hand, (len(boards), 1)), boards)))
            for hand in hands
        ]
    )
    winners = values == values.max(axis=0)
    shares = winners / winners.sum(axis=0)
    return [float(s) for s in shares.mean(axis=1)]


def test_aces_against_kings_preflop_matches_an_independent_enumeration() -> None:
    aces, kings = cards("AsAh"), cards("KdKc")
    result = equity([aces, kings])
    assert result == pytest.approx(batch_equity_preflop([aces, kings]), abs=1e-12)
    # Counted over all 1,712,304 boards with phevaluator (an independent C evaluator)
    # while developing: aces win 1,388,072 boards and tie 6,538.
    assert result[0] == pytest.approx((1_388_072 + 6_538 / 2) / 1_712_304, abs=1e-12)


def test_kings_sharing_a_suit_with_the_aces_have_the_textbook_18_percent() -> None:
    aces, kings = equity([cards("AsAh"), cards("KsKd")])
    assert aces == pytest.approx(0.8195, abs=1e-4)
    assert kings == pytest.approx(0.1805, abs=1e-4)


def test_a_three_way_preflop_pot_matches_an_independent_enumeration() -> None:
    hands = [cards("AsAh"), cards("KdKc"), cards("7h6h")]
    result = equity(hands)
    assert result == pytest.approx(batch_equity_preflop(hands), abs=1e-12)
    assert result[0] > result[2] > result[1]  # suited connectors out-run the kings here


@pytest.mark.parametrize(
    ("hands", "board"),
    [
        (["AsAh", "KdKc"], "2c7d9h"),
        (["AsKs", "QhQd", "Jc9c"], "Ts8c2s3c"),
        (["5h5d", "AcKd", "Tc9c", "7s6s"], "Td5c8h2d"),
        (["AhAd", "AsAc"], "KsQs2h"),
    ],
)
def test_flop_and_turn_equity_match_a_slow_enumeration(hands: list[str], board: str) -> None:
    holes = [cards(h) for h in hands]
    expected = slow_equity(holes, cards(board))
    assert equity(holes, cards(board)) == pytest.approx(expected, abs=1e-12)


def test_dead_cards_leave_the_deck() -> None:
    holes = [cards("AsAh"), cards("KdKc")]
    dead = cards("KsKh2d")
    with_dead = equity(holes, cards("2c7d9h"), dead)
    assert with_dead == pytest.approx(slow_equity(holes, cards("2c7d9h"), dead), abs=1e-12)
    assert with_dead[1] < equity(holes, cards("2c7d9h"))[1]  # the kings lost their set outs


@pytest.mark.parametrize(
    ("hands", "board"),
    [
        (["AsAh", "KdKc", "QsQc", "JhJd", "Tc9c", "8d7d"], ""),
        (["2c3d", "Th9h"], "AhKd4c"),
        (["2c3d", "Th9h", "QdQs"], "AhKd4c5s"),
    ],
)
def test_equities_add_up_to_the_whole_pot(hands: list[str], board: str) -> None:
    assert sum(equity([cards(h) for h in hands], cards(board))) == pytest.approx(1, abs=1e-12)


def test_when_the_board_plays_everyone_chops() -> None:
    assert equity([cards("2c3d"), cards("4h2s")], cards("AsKdQhJcTs")) == (0.5, 0.5)
    three_way = equity([cards("2c3d"), cards("4h2s"), cards("5c6c")], cards("AhKhQhJhTh"))
    assert three_way == pytest.approx((1 / 3, 1 / 3, 1 / 3))


def test_a_finished_board_gives_the_winner_everything() -> None:
    assert equity([cards("AsAh"), cards("KdKc")], cards("2c7d9h3sJd")) == (1.0, 0.0)
    assert equity([cards("AsAh"), cards("KdKc")], cards("2c7dKh3sJd")) == (0.0, 1.0)


def test_a_split_among_two_of_three_gives_the_third_nothing() -> None:
    board = cards("AsKdQh7c2s")
    result = equity([cards("JcTc"), cards("JdTd"), cards("AcAd")], board)
    assert result == (0.5, 0.5, 0.0)


@pytest.mark.parametrize(
    ("hands", "board", "dead", "message"),
    [
        (["AsAh"], "", "", "2 to 6 hands, not 1"),
        (["AsAh", "KdKc", "QdQc", "JdJc", "TdTc", "9d9c", "8d8c"], "", "", "not 7"),
        (["AsAhKs", "KdKc"], "", "", r"2 hole cards \(Hold'em\) or 4 \(Omaha\), not 3"),
        (["AsAh", "KdKc"], "2c7d", "", "0, 3, 4 or 5 cards, not 2"),
        (["AsAh", "KdKc"], "2c7d9h3sJd4c", "", "0, 3, 4 or 5 cards, not 6"),
        (["AsAh", "AsKc"], "", "", r"the same card appears twice: \[51\]"),
        (["AsAh", "KdKc"], "Kd7d9h", "", "the same card appears twice"),
        (["AsAh", "KdKc"], "2c7d9h", "9h", "the same card appears twice"),
    ],
)
def test_equity_rejects_impossible_situations(
    hands: list[str], board: str, dead: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        equity([cards(h) for h in hands], cards(board), cards(dead))


@pytest.mark.parametrize("bad", [52, -1, "As", 1.0])
def test_equity_rejects_things_that_are_not_cards(bad: object) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        equity([[51, bad], [0, 1]])  # type: ignore[list-item]


def test_equity_needs_enough_unseen_cards_for_the_board() -> None:
    dead = [c for c in range(52) if c not in cards("AsAhKdKc2c3c")]
    with pytest.raises(ValueError, match="only 2 unseen cards left, the board needs 5"):
        equity([cards("AsAh"), cards("KdKc")], (), dead)


def exact_vs_one_random_hand(hole: Sequence[int], board: Sequence[int]) -> float:
    """Exact equity against one uniformly random hand, turn board: every opponent pair
    and every river, scored in one evaluate_batch call per side."""
    unseen = [c for c in range(52) if c not in {*hole, *board}]
    rows = [(*pair, river) for pair in itertools.combinations(unseen, 2) for river in unseen]
    rows = [row for row in rows if row[2] not in row[:2]]
    deals = np.array(rows)
    shared = np.column_stack((np.tile(board, (len(deals), 1)), deals[:, 2]))
    hero = evaluate_batch(np.column_stack((np.tile(hole, (len(deals), 1)), shared)))
    villain = evaluate_batch(np.column_stack((deals[:, :2], shared)))
    return float(((hero > villain) + 0.5 * (hero == villain)).mean())


@pytest.mark.parametrize("rng", [Random(5), np.random.default_rng(5)], ids=["Random", "numpy"])
def test_monte_carlo_equity_lands_near_the_exact_value(rng: Random | np.random.Generator) -> None:
    hole, board = cards("Ah9h"), cards("Kh7h2c4d")
    exact = exact_vs_one_random_hand(hole, board)
    estimate = equity_vs_random(hole, board, opponents=1, samples=20_000, rng=rng)
    # the standard error of 20,000 samples is at most 0.5 / sqrt(20000) = 0.0035:
    # 0.015 is more than four of them (and the rng is seeded, so this cannot flake)
    assert estimate == pytest.approx(exact, abs=0.015)


def test_monte_carlo_equity_is_reproducible_with_the_same_seed() -> None:
    first = equity_vs_random(cards("QsJs"), opponents=3, samples=2_000, rng=Random(9))
    again = equity_vs_random(cards("QsJs"), opponents=3, samples=2_000, rng=Random(9))
    other = equity_vs_random(cards("QsJs"), opponents=3, samples=2_000, rng=Random(10))
    assert first == again
    assert first != other


def test_monte_carlo_knows_the_nuts_and_the_chop() -> None:
    nuts = equity_vs_random(cards("AhKh"), cards("QhJhTh2c3d"), 5, 500, rng=Random(1))
    assert nuts == 1.0
    for opponents in range(1, 10):  # a royal flush on the board: everyone splits it
        chop = equity_vs_random(cards("2c3d"), cards("AsKsQsJsTs"), opponents, 50, rng=Random(1))
        assert chop == pytest.approx(1 / (opponents + 1), abs=1e-12)


def test_more_opponents_lower_the_equity_of_aces() -> None:
    one = equity_vs_random(cards("AsAh"), opponents=1, samples=5_000, rng=Random(3))
    five = equity_vs_random(cards("AsAh"), opponents=5, samples=5_000, rng=Random(3))
    assert one == pytest.approx(0.852, abs=0.02)  # aces beat one random hand ~85%
    assert five < one - 0.2


@pytest.mark.parametrize(
    ("hole", "board", "opponents", "samples", "message"),
    [
        ("AsAhKs", "", 1, 100, r"2 hole cards \(Hold'em\) or 4 \(Omaha\), not 3"),
        ("AsAh", "", 0, 100, "opponents must be 1 to 9, not 0"),
        ("AsAh", "", 10, 100, "opponents must be 1 to 9, not 10"),
        ("AsAh", "", 1, 0, "samples must be at least 1"),
        ("AsAh", "As2c3c", 1, 100, "the same card appears twice"),
        ("AsAh", "2c3c", 1, 100, "0, 3, 4 or 5 cards"),
    ],
)
def test_monte_carlo_rejects_impossible_requests(
    hole: str, board: str, opponents: int, samples: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        equity_vs_random(cards(hole), cards(board), opponents, samples, rng=Random(0))

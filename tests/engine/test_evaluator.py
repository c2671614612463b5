"""The hand evaluator agrees with a plain reference implementation of poker's ranking.

The reference below (``reference_score``) is written to be obviously right
rather than fast: it sorts the ranks, counts them and compares tuples. The
evaluator must order every hand exactly as the reference does.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from random import Random

import numpy as np
import pytest

from engine import category, describe, evaluate, evaluate_batch
from engine.cards import cards

CATEGORY_NAMES = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)


def reference_score(hand: Sequence[int]) -> tuple[int, ...]:
    """(category index, tie-break ranks...) of exactly five cards."""
    ranks = sorted((c // 4 for c in hand), reverse=True)
    is_flush = len({c % 4 for c in hand}) == 1
    counts = Counter(ranks)
    # groups ordered by size, then by rank: (pair of 9s, then kickers high to low)
    groups = sorted(counts.items(), key=lambda rank_count: (rank_count[1], rank_count[0]))
    groups.reverse()
    shape = [count for _, count in groups]
    tiebreak = tuple(rank for rank, _ in groups)
    straight_high = None
    if len(counts) == 5 and ranks[0] - ranks[4] == 4:
        straight_high = ranks[0]
    if ranks == [12, 3, 2, 1, 0]:  # A-2-3-4-5: the ace plays low
        straight_high = 3
    if straight_high is not None and is_flush:
        return (8, straight_high)
    if shape == [4, 1]:
        return (7, *tiebreak)
    if shape == [3, 2]:
        return (6, *tiebreak)
    if is_flush:
        return (5, *tiebreak)
    if straight_high is not None:
        return (4, straight_high)
    if shape == [3, 1, 1]:
        return (3, *tiebreak)
    if shape == [2, 2, 1]:
        return (2, *tiebreak)
    if shape == [2, 1, 1, 1]:
        return (1, *tiebreak)
    return (0, *tiebreak)


def reference_best(hand: Sequence[int]) -> tuple[int, ...]:
    return max(reference_score(five) for five in itertools.combinations(hand, 5))


def assert_same_order(values: Sequence[int], references: Sequence[tuple[int, ...]]) -> None:
    """value(a) < value(b) iff ref(a) < ref(b), and equal iff equal, for every pair."""
    pairs = sorted(set(zip(references, values, strict=True)))
    for (ref_a, value_a), (ref_b, value_b) in itertools.pairwise(pairs):
        assert ref_a != ref_b, f"{ref_a} got two values: {value_a} and {value_b}"
        assert value_a < value_b, f"{ref_a} -> {value_a} but {ref_b} -> {value_b}"


def random_hands(count: int, size: int, seed: int) -> list[list[int]]:
    rng = Random(seed)
    return [rng.sample(range(52), size) for _ in range(count)]


def test_all_2598960_five_card_hands_rank_exactly_as_poker_does() -> None:
    hands = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 5)), dtype=np.int8
    ).reshape(-1, 5)
    assert hands.shape[0] == 2_598_960
    values = evaluate_batch(hands)
    # Hands with the same sorted ranks and the same "all one suit" flag are the same
    # poker hand, so the reference is computed once per such class.
    ranks = np.sort(hands // 4, axis=1).astype(np.int64)
    is_flush = (hands % 4 == hands[:, :1] % 4).all(axis=1)
    class_code = (ranks @ 13 ** np.arange(5)) * 2 + is_flush
    codes, first, inverse = np.unique(class_code, return_index=True, return_inverse=True)
    assert codes.size == 7462
    class_values = values[first]
    assert (values == class_values[inverse]).all(), "two equivalent hands got different values"
    references = [reference_score(hands[i].tolist()) for i in first]
    by_reference = sorted(zip(references, class_values.tolist(), strict=True))
    assert [value for _, value in by_reference] == list(range(1, 7463))
    for reference, value in by_reference:
        assert category(value) == CATEGORY_NAMES[reference[0]]


@pytest.mark.exhaustive
def test_evaluate_gives_every_five_card_hand_the_batch_value() -> None:
    hands = list(itertools.combinations(range(52), 5))
    batch = evaluate_batch(np.array(hands, dtype=np.int8)).tolist()
    assert [evaluate(hand) for hand in hands] == batch


@pytest.mark.exhaustive
def test_seven_card_hands_score_their_best_five() -> None:
    hands = random_hands(20_000, 7, seed=7)
    assert_same_order([evaluate(h) for h in hands], [reference_best(h) for h in hands])


def test_six_card_hands_score_their_best_five() -> None:
    hands = random_hands(5_000, 6, seed=6)
    assert_same_order([evaluate(h) for h in hands], [reference_best(h) for h in hands])


def test_a_seven_card_hand_scores_as_its_best_five_card_hand() -> None:
    for hand in random_hands(2_000, 7, seed=11):
        assert evaluate(hand) == max(evaluate(five) for five in itertools.combinations(hand, 5))


EDGE_CASES = {
    "wheel": ("5c4d3h2sAs9hJc", "straight", "Straight, Five High"),
    "steel wheel": ("5h4h3h2hAh9hJc", "straight_flush", "Straight Flush, Five High"),
    "six-high straight over the wheel": ("6c5c4d3h2sAsKd", "straight", "Straight, Six High"),
    "broadway": ("AsKdQhJcTs2c3c", "straight", "Straight, Ace High"),
    "royal flush": ("AhKhQhJhTh2c3c", "straight_flush", "Royal Flush"),
    "straight flush over a higher straight": (
        "9h8h7h6h5hTc2d",
        "straight_flush",
        "Straight Flush, Nine High",
    ),
    "six suited cards": ("Ks9s7s5s3s2sAd", "flush", "Flush, King High"),
    "seven suited cards": ("Qd9d7d5d3d2d4d", "flush", "Flush, Queen High"),
    "flush beats a straight in other cards": ("9s8s7s6d5s2sAs", "flush", "Flush, Ace High"),
    "quads with a full house": ("AsAdAcAhKsKdKc", "four_of_a_kind", "Four of a Kind, Aces"),
    "two trips": ("7s7d7cKhKsKd2c", "full_house", "Full House, Kings over Sevens"),
    "three pairs": ("QsQd4c4h2s2dTc", "two_pair", "Two Pair, Queens and Fours"),
    "pair": ("JsJd8c4h2s3dKc", "pair", "Pair of Jacks"),
    "trips of sixes": ("6s6d6c4h2sTdKc", "three_of_a_kind", "Three of a Kind, Sixes"),
    "high card": ("KsJd8c4h2s3d9c", "high_card", "High Card, King"),
}


@pytest.mark.parametrize("name", EDGE_CASES)
def test_edge_case_hands_get_the_right_category_and_name(name: str) -> None:
    text, expected_category, expected_name = EDGE_CASES[name]
    value = evaluate(cards(text))
    assert category(value) == expected_category
    assert describe(value) == expected_name
    assert reference_best(cards(text))[0] == CATEGORY_NAMES.index(expected_category)


def test_batch_values_equal_evaluate_row_by_row() -> None:
    hands = random_hands(20_000, 7, seed=3) + [list(cards(t)) for t, _, _ in EDGE_CASES.values()]
    expected = [evaluate(h) for h in hands]
    for dtype in (np.int64, np.int32, np.uint8):
        assert evaluate_batch(np.array(hands, dtype=dtype)).tolist() == expected


@pytest.mark.parametrize("size", [5, 6])
def test_batch_accepts_five_and_six_card_rows(size: int) -> None:
    hands = random_hands(5_000, size, seed=size)
    assert evaluate_batch(np.array(hands)).tolist() == [evaluate(h) for h in hands]


def test_batch_of_no_hands_is_empty() -> None:
    assert evaluate_batch(np.zeros((0, 7), dtype=np.int64)).shape == (0,)


def test_descriptions_read_as_poker_players_say_them() -> None:
    assert describe(evaluate(cards("KsKdKh7c7d"))) == "Full House, Kings over Sevens"
    assert describe(evaluate(cards("AsAd4c4h9s"))) == "Two Pair, Aces and Fours"
    assert describe(evaluate(cards("AsJs8s4s2s"))) == "Flush, Ace High"
    assert describe(evaluate(cards("9s9d9c9h2s"))) == "Four of a Kind, Nines"
    assert describe(evaluate(cards("7c2d3h4s5s"))) == "High Card, Seven"


def test_every_value_has_a_name_and_a_category_of_the_right_size() -> None:
    sizes = Counter(category(value) for value in range(1, 7463))
    assert all(describe(value) for value in range(1, 7463))
    assert sizes == {
        "high_card": 1277,
        "pair": 2860,
        "two_pair": 858,
        "three_of_a_kind": 858,
        "straight": 10,
        "flush": 1277,
        "full_house": 156,
        "four_of_a_kind": 156,
        "straight_flush": 10,
    }


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ([0, 1, 2, 3], "5, 6 or 7 cards, not 4"),
        (list(range(8)), "5, 6 or 7 cards, not 8"),
        ([0, 1, 2, 3, 3], "same card twice"),
        ([0, 1, 2, 3, 4, 5, 5], "same card twice"),
        ([0, 1, 2, 3, 52], "52 is not a card"),
        ([0, 1, 2, 3, 4, 5, -1], "-1 is not a card"),
        ([0, 1, 2, 3, "As"], "'As' is not a card"),
    ],
)
def test_evaluate_rejects_impossible_hands(hand: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate(hand)


@pytest.mark.parametrize("value", [0, 7463, -5])
def test_describe_and_category_reject_values_no_hand_has(value: int) -> None:
    with pytest.raises(ValueError, match="not a hand value"):
        describe(value)
    with pytest.raises(ValueError, match="not a hand value"):
        category(value)


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (np.zeros(7, dtype=np.int64), r"\(N, 5\), \(N, 6\) or \(N, 7\)"),
        (np.zeros((3, 4), dtype=np.int64), r"not \(3, 4\)"),
        (np.arange(7.0).reshape(1, 7), "integer cards"),
        (np.array([[0, 1, 2, 3, 4, 5, 52]]), "outside 0..51"),
        (np.array([[0, 1, 2, 3, 4, 5, -1]]), "outside 0..51"),
        (np.array([[0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 6, 6]]), "hand 1 holds the same card"),
    ],
)
def test_evaluate_batch_rejects_impossible_hands(hands: np.ndarray, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate_batch(hands)

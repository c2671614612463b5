"""Omaha hands are valued from exactly two hole cards and exactly three of the board
(docs/rules.md rule 21): equal to the best of those five-card hands valued one by
one, and ordered as PokerKit's Omaha hands are."""

from __future__ import annotations

from itertools import combinations
from random import Random

import numpy as np
import pytest
from pokerkit import OmahaHoldemHand

from engine import card_str, category, describe, evaluate, evaluate_omaha, evaluate_omaha_batch
from engine.cards import cards


def by_hand(hole: list[int], board: list[int]) -> int:
    """The rule as written: every two of the hole with every three of the board."""
    return max(
        evaluate([*two, *three])
        for two in combinations(hole, 2)
        for three in combinations(board, 3)
    )


def deal(rng: Random, board_size: int, players: int = 1) -> tuple[list[list[int]], list[int]]:
    deck = rng.sample(range(52), 4 * players + board_size)
    holes = [deck[4 * n : 4 * n + 4] for n in range(players)]
    return holes, deck[4 * players :]


def pokerkit_hand(hole: list[int], board: list[int]) -> OmahaHoldemHand:
    return OmahaHoldemHand.from_game("".join(map(card_str, hole)), "".join(map(card_str, board)))


@pytest.mark.parametrize("board_size", [3, 4, 5])
def test_the_value_is_the_best_two_plus_three_of_every_hand_dealt(board_size: int) -> None:
    rng = Random(board_size)
    for _ in range(3000):
        (hole,), board = deal(rng, board_size)
        assert evaluate_omaha(hole, board) == by_hand(hole, board)


def test_hands_are_ordered_as_pokerkits_omaha_hands_are() -> None:
    rng = Random(26)
    for _ in range(1500):
        (first, second), board = deal(rng, 5, players=2)
        ours = evaluate_omaha(first, board) - evaluate_omaha(second, board)
        mine, yours = pokerkit_hand(first, board), pokerkit_hand(second, board)
        pokerkit = (mine > yours) - (mine < yours)
        assert (ours > 0) - (ours < 0) == pokerkit, (first, second, board)


@pytest.mark.parametrize(
    ("hole", "board", "made"),
    [
        ("AsAhAdAc", "KdKc7h2s3d", "Two Pair, Aces and Kings"),  # two of the four aces only
        ("As2d3c4h", "KsQsJs9s5h", "High Card, Ace"),  # one spade held: no flush
        ("AsKs2d3c", "QsJsTs4h5h", "Royal Flush"),
        ("Ah2h7c8d", "3h4h5h9c9d", "Straight Flush, Five High"),
        ("9h9d2c3s", "9s9c2h7d8d", "Four of a Kind, Nines"),  # two held, two on the board
    ],
)
# rule 21
def test_the_hand_a_player_makes_uses_two_of_their_cards(hole: str, board: str, made: str) -> None:
    assert describe(evaluate_omaha(cards(hole), cards(board))) == made


@pytest.mark.parametrize(
    ("hole", "board", "message"),
    [
        ([0, 1, 2], [10, 11, 12], "4 hole cards, not 3"),
        ([0, 1, 2, 3], [10, 11, 12, 13, 14, 15], "3 to 5 board cards, not 6"),
        ([0, 1, 2, 3], [10, 11], "3 to 5 board cards, not 2"),
        ([0, 1, 2, 3], [10, 11, 3], "the same card twice"),
        ([0, 1, 2, 52], [10, 11, 12], "cards are 0..51"),
    ],
)
def test_what_is_not_an_omaha_hand_is_refused(
    hole: list[int], board: list[int], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate_omaha(hole, board)


def test_cards_held_in_numpy_integers_are_valued_alike() -> None:
    hole, board = cards("AsKs2d3c"), cards("QsJsTs4h5h")
    assert evaluate_omaha(list(np.array(hole)), list(np.array(board))) == evaluate_omaha(
        hole, board
    )


# --- many hands at once ---------------------------------------------------------


def batch_of(rng: Random, board_size: int, count: int, suits: int = 4) -> np.ndarray:
    """``count`` rows of four hole cards then ``board_size`` board cards, dealt from the
    first ``suits`` suits only (two suits make flushes common)."""
    deck = [c for c in range(52) if c % 4 < suits]
    return np.array([rng.sample(deck, 4 + board_size) for _ in range(count)])


@pytest.mark.parametrize("board_size", [3, 4, 5])
@pytest.mark.parametrize("suits", [4, 2], ids=["any suits", "flushes common"])
def test_a_batch_values_every_hand_as_evaluate_omaha_does(board_size: int, suits: int) -> None:
    rows = batch_of(Random(board_size * 10 + suits), board_size, 1500, suits)
    values = evaluate_omaha_batch(rows[:, :4], rows[:, 4:])
    expected = [evaluate_omaha(list(row[:4]), list(row[4:])) for row in rows]
    assert values.tolist() == expected
    if suits == 2:
        assert sum(category(v) in ("flush", "straight_flush") for v in expected) > 150


def test_a_batch_takes_any_integer_array_and_may_be_empty() -> None:
    rows = batch_of(Random(1), 5, 50)
    as_int64 = evaluate_omaha_batch(rows[:, :4], rows[:, 4:])
    as_uint8 = evaluate_omaha_batch(rows[:, :4].astype(np.uint8), rows[:, 4:].astype(np.uint8))
    assert as_uint8.tolist() == as_int64.tolist()
    assert evaluate_omaha_batch(np.zeros((0, 4), int), np.zeros((0, 5), int)).shape == (0,)


@pytest.mark.parametrize(
    ("holes", "boards", "message"),
    [
        (np.zeros((2, 3), int), np.zeros((2, 5), int), r"holes must be an \(N, 4\) array"),
        (np.zeros(4, int), np.zeros((1, 5), int), r"holes must be an \(N, 4\) array"),
        (np.zeros((2, 4), int), np.zeros((2, 6), int), r"boards must be an \(N, 3\)"),
        (np.zeros((2, 4), int), np.zeros((3, 5), int), "2 holes but 3 boards"),
        (np.zeros((1, 4)), np.zeros((1, 5)), "integer cards, not float64"),
        ([[0, 1, 2, 52]], [[10, 11, 12]], "outside 0..51"),
        ([[0, 1, 2, -1]], [[10, 11, 12]], "outside 0..51"),
        ([[0, 1, 2, 3], [4, 5, 6, 7]], [[10, 11, 12], [8, 9, 7]], "hand 1 holds the same card"),
    ],
)
def test_a_batch_refuses_what_is_not_omaha_hands(
    holes: object, boards: object, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate_omaha_batch(holes, boards)  # type: ignore[arg-type]

"""Cards parse and print as players write them, and shuffles are fair permutations."""

from __future__ import annotations

from random import Random

import pytest

from engine.cards import DECK, RANKS, SUITS, card, card_str, cards, cards_str, new_deck, shuffle


def test_every_card_prints_and_parses_back_to_itself() -> None:
    names = [card_str(c) for c in DECK]
    assert len(set(names)) == 52
    assert [card(name) for name in names] == list(DECK)
    assert names[0] == "2c"
    assert names[51] == "As"


def test_rank_and_suit_follow_the_documented_order() -> None:
    for rank_index, rank in enumerate(RANKS):
        for suit_index, suit in enumerate(SUITS):
            assert card(rank + suit) == rank_index * 4 + suit_index


def test_rank_letters_may_be_lower_case_and_suits_upper_case() -> None:
    assert card("td") == card("Td")
    assert card("AS") == card("As")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A", "expected a rank and a suit"),
        ("Asd", "expected a rank and a suit"),
        ("", "expected a rank and a suit"),
        ("1s", "ranks are 23456789TJQKA"),
        ("Ax", "suits are cdhs"),
    ],
)
def test_card_rejects_text_that_is_not_a_card(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        card(text)


@pytest.mark.parametrize("value", [-1, 52, 100])
def test_card_str_rejects_numbers_outside_the_deck(value: int) -> None:
    with pytest.raises(ValueError, match="cards are 0..51"):
        card_str(value)


def test_cards_reads_runs_with_or_without_spaces() -> None:
    assert cards("AsKd7c") == (51, 45, 20)
    assert cards(" As Kd\t7c ") == (51, 45, 20)
    assert cards("") == ()


def test_cards_rejects_a_dangling_character() -> None:
    with pytest.raises(ValueError, match="each card is two characters"):
        cards("AsK")


def test_cards_str_joins_cards_without_separators() -> None:
    assert cards_str(cards("As Kd 7c")) == "AsKd7c"
    assert cards_str(()) == ""


def test_shuffle_returns_a_permutation_and_leaves_its_input_alone() -> None:
    original = list(range(52))
    shuffled = shuffle(original, Random(1))
    assert original == list(range(52))
    assert isinstance(shuffled, tuple)
    assert sorted(shuffled) == original
    assert shuffled != tuple(original)


def test_a_seeded_rng_gives_the_same_order_every_time() -> None:
    assert new_deck(Random(42)) == new_deck(Random(42))
    assert new_deck(Random(42)) != new_deck(Random(43))


class SubclassedRandom(Random):
    """A ``Random`` subclass: ``shuffle`` takes its general path through ``randrange``."""


@pytest.mark.parametrize("seed", [0, 1, 42, 20261121])
def test_a_plain_or_subclassed_generator_with_one_seed_deals_the_same_deck(seed: int) -> None:
    plain, subclassed = Random(seed), SubclassedRandom(seed)
    assert new_deck(plain) == new_deck(subclassed)
    assert shuffle(range(10), plain) == shuffle(range(10), subclassed)
    assert plain.random() == subclassed.random()  # and both drew the same numbers


def test_without_an_rng_the_deck_is_shuffled_by_secrets() -> None:
    decks = {new_deck() for _ in range(5)}
    assert all(sorted(deck) == list(DECK) for deck in decks)
    assert len(decks) == 5  # five equal 52-card shuffles: probability about 5e-67


def test_short_sequences_shuffle_too() -> None:
    assert shuffle(()) == ()
    assert shuffle([7]) == (7,)
    assert sorted(shuffle([3, 1, 2], Random(0))) == [1, 2, 3]


def test_every_card_is_equally_likely_in_every_position() -> None:
    """Pearson chi-square over a 52 x 52 table (card x position) of 20,000 shuffles.

    Each cell is Binomial(20000, 1/52), so with a fair shuffle the statistic has
    mean exactly 52 * 51 = 2652 and is very nearly chi-square with 2652 degrees
    of freedom (standard deviation about 73). The threshold 3033 is that
    distribution's upper 5-sigma point (Wilson-Hilferty), so a fair shuffle
    fails with probability about 3e-7 per seed. The rng is seeded, so the
    result is the same on every run: the test cannot flake, and a bias such as
    an off-by-one Fisher-Yates (a card never staying in place) fails it hugely.
    """
    shuffles = 20_000
    rng = Random(20261121)
    counts = [[0] * 52 for _ in range(52)]
    for _ in range(shuffles):
        for position, dealt in enumerate(shuffle(DECK, rng)):
            counts[dealt][position] += 1
    expected = shuffles / 52
    statistic = sum((n - expected) ** 2 / expected for row in counts for n in row)
    assert statistic < 3033

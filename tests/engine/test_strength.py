"""A player's hand in words as the board comes, and the five cards a shown hand plays."""

import pytest

from engine import best_five, cards, strength


@pytest.mark.parametrize(
    ("held", "expected"),
    [
        ("9s 9h", "Pair of Nines"),
        ("Ah 7c", "High Card, Ace"),
        ("7c Ah", "High Card, Ace"),
        ("9s 9h 2c 5d 9c", "Three of a Kind, Nines"),
        ("As Ks Qs Js 2d Ts", "Royal Flush"),
        ("4h 4d Kc Kd 2s 7h 9c", "Two Pair, Kings and Fours"),
    ],
)
def test_a_hand_is_named_from_the_cards_seen_so_far(held, expected):
    assert strength(cards(held)) == expected


def test_strength_refuses_what_is_not_a_hand():
    with pytest.raises(ValueError):
        strength(cards("9s"))
    with pytest.raises(ValueError):
        strength(cards("9s 9h 2c"))


def test_the_best_five_are_the_cards_that_make_the_hand():
    played = best_five(cards("9s 9h Kd 2c 9d 3h Kc"))
    assert set(played) == set(cards("9s 9h 9d Kd Kc"))
    assert set(best_five(cards("2c 3d 4h 5s 7c 8d Ac"))) == set(cards("2c 3d 4h 5s Ac"))


def test_five_cards_are_their_own_best_five_and_a_card_twice_is_refused():
    five = cards("2c 7d 9h Js Kc")
    assert best_five(five) == tuple(five)
    with pytest.raises(ValueError, match="same card twice"):
        best_five(cards("2c 2c 9h Js Kc"))

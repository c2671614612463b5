"""Poker hand evaluation: 5, 6 or 7 cards to one comparable integer.

``evaluate(cards)`` returns a value in 1..7462: a higher value beats a lower
one and equal values tie. For 6 or 7 cards it is the value of the best five.

>>> from engine.cards import cards
>>> evaluate(cards("AsKsQsJsTs2c3d")) > evaluate(cards("AhAdAcAs2c3d4h"))
True
>>> describe(evaluate(cards("KsKdKh7c7d")))
'Full House, Kings over Sevens'
>>> category(evaluate(cards("5c4d3h2sAs")))
'straight'

Everything is a table lookup (see ``engine.eval_tables``): the cards' keys are
summed, a suit-count probe spots flushes, and the sum indexes a table.
``evaluate_batch`` does the same with numpy for many hands at once.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import combinations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from engine import eval_tables as _t

_TABLES = _t.Tables()
# Scalar keys also carry the card's own bit, so a repeated card shows as a carry.
_CARD_KEY = {c: key + (1 << (_t.CARD_SHIFT + c)) for c, key in enumerate(_t.CARD_KEY)}
CARD_KEY_ARRAY = np.array(_t.CARD_KEY, dtype=np.int64)
CARD_BIT_ARRAY = np.array(_t.CARD_BIT, dtype=np.int64)
_NONFLUSH = _TABLES.nonflush
_FLUSH = [_TABLES.value_objects[v] for v in _TABLES.flush.tolist()]
FLUSH_ARRAY = _TABLES.flush  # the value of each one-suit 13-bit rank mask; 0 below five ranks
_CLASSES = _TABLES.classes
_CATEGORY_START = [
    next(i + 1 for i, s in enumerate(_CLASSES) if s[0] == c) for c in range(len(_t.CATEGORIES))
]
_CARD_SHIFT = _t.CARD_SHIFT
_PROBE = _t.FLUSH_PROBE
_FLUSH_BITS = _t.FLUSH_BITS
_RANK_MASK = _t.RANK_MASK
IntArray = _t.IntArray

WORST = 1
BEST = len(_CLASSES)  # 7462 distinct hand values

_RANK_NAMES: tuple[str, ...] = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight")
_RANK_NAMES += ("Nine", "Ten", "Jack", "Queen", "King", "Ace")
_RANK_PLURALS = tuple(name + ("es" if name == "Six" else "s") for name in _RANK_NAMES)


def evaluate(cards: Sequence[int]) -> int:
    """Value of the best five-card hand among 5, 6 or 7 distinct cards (ints 0..51)."""
    count = len(cards)
    key = _CARD_KEY  # bound locally: the seven-card path is the hot one
    try:
        if count == 7:
            a, b, c, d, e, f, g = cards
            total = key[a] + key[b] + key[c] + key[d] + key[e] + key[f] + key[g]
        elif count == 5 or count == 6:
            total = sum(map(key.__getitem__, cards))
        else:
            raise ValueError(f"a hand to evaluate has 5, 6 or 7 cards, not {count}")
    except KeyError as error:
        raise ValueError(f"{error.args[0]!r} is not a card: cards are 0..51") from None
    if (total >> _CARD_SHIFT).bit_count() != count:
        raise ValueError(f"a hand cannot hold the same card twice: {list(cards)}")
    if (total + _PROBE) & _FLUSH_BITS:
        return _flush_value(total, cards)
    return _NONFLUSH[total & _RANK_MASK]


def evaluate_omaha(hole: Sequence[int], board: Sequence[int]) -> int:
    """Value of the best Omaha hand: exactly two of the four ``hole`` cards with
    exactly three of the ``board``'s three to five cards (the same scale as ``evaluate``).

    >>> from engine.cards import cards
    >>> four_aces = evaluate_omaha(cards("AsAhAdAc"), cards("Kd Kc 7h 2s 3d"))
    >>> describe(four_aces)  # two aces and three of the board: no quads
    'Two Pair, Aces and Kings'
    >>> describe(evaluate_omaha(cards("As Td 8c 2h"), cards("Ks Qs Js 4s 5h")))  # one spade held
    'Straight, Ace High'
    """
    if len(hole) != 4:
        raise ValueError(f"an Omaha hand has 4 hole cards, not {len(hole)}")
    if not 3 <= len(board) <= 5:
        raise ValueError(f"an Omaha hand is valued with 3 to 5 board cards, not {len(board)}")
    every = [*hole, *board]
    key = _CARD_KEY
    if any(c not in key for c in every):
        raise ValueError(f"cards are 0..51: {every}")
    if len(set(every)) != len(every):
        raise ValueError(f"a hand cannot hold the same card twice: {every}")
    # Every two of the hole with every three of the board: 6 x 10 hands on the river,
    # each a sum of keys and one lookup, as ``evaluate`` does for five cards.
    threes = [(key[a] + key[b] + key[c], (a, b, c)) for a, b, c in combinations(board, 3)]
    best = WORST
    for a, b in combinations(hole, 2):
        two = key[a] + key[b]
        for three, board_cards in threes:
            total = two + three
            if (total + _PROBE) & _FLUSH_BITS:
                value = _flush_value(total, (a, b, *board_cards))
            else:
                value = _NONFLUSH[total & _RANK_MASK]
            if value > best:
                best = value
    return int(best)


def _flush_value(total: int, cards: Sequence[int]) -> int:
    """Five or more cards share a suit: only that suit's ranks matter."""
    flags = ((total + _PROBE) & _FLUSH_BITS) >> _t.FLUSH_BIT0
    suit = (flags.bit_length() - 1) // 4
    rank_mask = 0
    for c in cards:
        if c & 3 == suit:
            rank_mask |= 1 << (c >> 2)
    return int(_FLUSH[rank_mask])


def _check_value(value: int) -> None:
    if not WORST <= value <= BEST:
        raise ValueError(f"{value!r} is not a hand value: values are {WORST}..{BEST}")


def category(value: int) -> str:
    """The hand category of a value, e.g. ``"full_house"`` (a royal flush is a straight_flush)."""
    _check_value(value)
    return _t.CATEGORIES[bisect_right(_CATEGORY_START, value) - 1]


def describe(value: int) -> str:
    """A readable name for a hand value, e.g. ``"Two Pair, Aces and Fours"``."""
    _check_value(value)
    kind, *ranks = _CLASSES[value - 1]
    top = ranks[0]
    if kind == _t.HIGH_CARD:
        return f"High Card, {_RANK_NAMES[top]}"
    if kind == _t.PAIR:
        return f"Pair of {_RANK_PLURALS[top]}"
    if kind == _t.TWO_PAIR:
        return f"Two Pair, {_RANK_PLURALS[top]} and {_RANK_PLURALS[ranks[1]]}"
    if kind == _t.TRIPS:
        return f"Three of a Kind, {_RANK_PLURALS[top]}"
    if kind == _t.STRAIGHT:
        return f"Straight, {_RANK_NAMES[top]} High"
    if kind == _t.FLUSH_CAT:
        return f"Flush, {_RANK_NAMES[top]} High"
    if kind == _t.FULL_HOUSE:
        return f"Full House, {_RANK_PLURALS[top]} over {_RANK_PLURALS[ranks[1]]}"
    if kind == _t.QUADS:
        return f"Four of a Kind, {_RANK_PLURALS[top]}"
    if top == 12:
        return "Royal Flush"
    return f"Straight Flush, {_RANK_NAMES[top]} High"


def best_five(cards: Sequence[int]) -> tuple[int, ...]:
    """The five of 5, 6 or 7 cards that make their best hand (the first of equals).

    >>> from engine.cards import cards, cards_str
    >>> cards_str(best_five(cards("9s 9h Kd 2c 9d 3h Kc")))
    '9s9hKd9dKc'
    """
    if len(cards) == 5:
        evaluate(cards)  # refuses what is not a hand
        return tuple(cards)
    return max(combinations(cards, 5), key=evaluate)


def strength(cards: Sequence[int]) -> str:
    """What a player's hole cards make with the board so far (2, 5, 6 or 7 cards).

    With the board's five cards or some of them, the best hand's ``describe``; with
    the hole cards alone, their pair or their high card.

    >>> from engine.cards import cards
    >>> strength(cards("9s 9h")), strength(cards("Ah 7c")), strength(cards("9s 9h 2c 5d 9c"))
    ('Pair of Nines', 'High Card, Ace', 'Three of a Kind, Nines')
    """
    if len(cards) >= 5:
        return describe(evaluate(cards))
    if len(cards) != 2 or cards[0] == cards[1]:
        raise ValueError(f"hole cards are two different cards, not {list(cards)}")
    high, low = sorted((card // 4 for card in cards), reverse=True)
    return f"Pair of {_RANK_PLURALS[high]}" if high == low else f"High Card, {_RANK_NAMES[high]}"


def evaluate_batch(hands: ArrayLike) -> IntArray:
    """Values of many hands at once: ``hands`` is an (N, 5), (N, 6) or (N, 7) int array.

    Returns an int64 array of N values equal to ``evaluate`` row by row. Raises
    ValueError for another shape, a non-integer array, a card outside 0..51 or
    a row holding the same card twice. Any integer dtype works; uint8 is fastest.
    """
    array = np.asarray(hands)
    if array.ndim != 2 or array.shape[1] not in (5, 6, 7):
        raise ValueError(f"hands must be an (N, 5), (N, 6) or (N, 7) array, not {array.shape}")
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"hands must hold integer cards, not {array.dtype}")
    if array.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    if array.min() < 0 or array.max() > 51:
        raise ValueError("hands hold a card outside 0..51")
    size = array.shape[1]
    columns = [array[:, j] for j in range(size)]
    masks = CARD_BIT_ARRAY[columns[0]]
    keys = CARD_KEY_ARRAY[columns[0]]
    for column in columns[1:]:  # column by column: much faster than summing along rows
        masks |= CARD_BIT_ARRAY[column]
        keys += CARD_KEY_ARRAY[column]
    repeats = np.flatnonzero(np.bitwise_count(masks) != size)
    if repeats.size:
        raise ValueError(f"hand {repeats[0]} holds the same card twice: {array[repeats[0]]}")
    return values_of_keys(keys, size, masks.__getitem__)


def values_of_keys(
    keys: NDArray[np.int64], size: int, card_masks: Callable[[IntArray], IntArray]
) -> IntArray:
    """Values of hands of ``size`` cards from their summed card keys.

    ``card_masks(rows)`` returns the suit-major card masks of the given rows;
    it is only called for the few rows holding a flush.
    """
    values = _TABLES.lookup(size, keys & _t.RANK_MASK)
    flags = (keys + _PROBE) & _FLUSH_BITS
    rows = np.flatnonzero(flags)
    if rows.size:
        top = flags[rows] >> _t.FLUSH_BIT0  # 1, 16, 256 or 4096: one suit has 5+
        suit = (top >= 16).astype(np.int64) + (top >= 256) + (top >= 4096)
        ranks = card_masks(rows) >> (13 * suit) & 0x1FFF
        values[rows] = FLUSH_ARRAY[ranks]
    return values

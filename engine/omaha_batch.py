"""Many Omaha hands valued at once with numpy: the batch path behind Omaha equity
and the bots' Omaha strength.

``evaluate_omaha_batch(holes, boards)`` equals ``evaluate_omaha`` row by row:

>>> from engine.cards import cards
>>> from engine.evaluator import describe
>>> values = evaluate_omaha_batch([cards("AsAhAdAc"), cards("As2d3c4h")],
...                               [cards("KdKc7h2s3d"), cards("KsQsJs9s5h")])
>>> [describe(int(v)) for v in values]  # two of the four aces; one spade held, no flush
['Two Pair, Aces and Kings', 'High Card, Ace']

Why it is fast: without a flush, an Omaha hand is two hole ranks with three
board ranks, so its best value depends only on the rank multiset of the four
hole cards and that of each three board cards. One table, built on first use
(about 30 ms), holds the best of the six hole pairs for every four-rank
multiset (1,820) against every three-rank one (455); a hand on the river is
then ten lookups. A flush needs two hole cards and three board cards of one
suit, so only rows whose board has three of a suit and whose hand has two are
checked, pair by triple, in the evaluator's flush table (which is 0 for
fewer than five ranks, so a pair or a triple not all of that suit drops out).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np
from numpy.typing import ArrayLike

from engine import eval_tables as _t
from engine.evaluator import CARD_BIT_ARRAY, FLUSH_ARRAY, IntArray, values_of_keys

_PAIRS = np.array(list(combinations(range(4), 2)))
_TRIPLES = {size: np.array(list(combinations(range(size), 3))) for size in (3, 4, 5)}
_RANK_KEY = np.array(_t.RANK_KEY, dtype=np.int64)
_TRIPLE_MULTISETS = 455  # three ranks of 13, repeats allowed: C(15, 3)


def _multisets(size: int) -> IntArray:
    """Every multiset of ``size`` ranks, as sorted rows in lexicographic order."""
    return np.array(list(combinations_with_replacement(range(13), size)), dtype=np.int64)


def _index_by_code(multisets: IntArray) -> IntArray:
    """Multiset index of every ordered tuple of ranks, by its base-13 code."""
    size = multisets.shape[1]
    weights = 13 ** np.arange(size - 1, -1, -1)
    ordered = np.sort(np.indices((13,) * size).reshape(size, -1).T, axis=1)
    index: IntArray = np.searchsorted(multisets @ weights, ordered @ weights)
    return index


@cache
def _tables() -> tuple[IntArray, IntArray, IntArray]:
    """The hole-multiset index of each four-rank code, the triple-multiset index of each
    three-rank code, and the best non-flush value by (hole multiset, triple multiset)."""
    holes, pairs, triples = _multisets(4), _multisets(2), _multisets(3)
    pair_keys = _RANK_KEY[pairs].sum(axis=1)
    keys = pair_keys[:, None] + _RANK_KEY[triples].sum(axis=1)[None, :]
    # a pocket pair and trips of the same rank would be five of a kind: no real hand
    impossible = (pairs[:, :1] == pairs[:, 1:]) & (triples[:, 0] == triples[:, 2])[None, :]
    impossible &= pairs[:, :1] == triples[:, 0][None, :]
    keys[impossible] = keys[0, 1]  # any real key; its value is zeroed just below
    # rank keys carry no suit counts, so the evaluator finds no flush among them
    by_pair = values_of_keys(keys.reshape(-1), 5, lambda rows: rows).reshape(keys.shape)
    by_pair[impossible] = 0
    pair_of_hole = _index_by_code(pairs)[holes[:, _PAIRS] @ np.array([13, 1])]
    best: IntArray = by_pair[pair_of_hole].max(axis=1)
    return _index_by_code(holes), _index_by_code(triples), best


def evaluate_omaha_batch(holes: ArrayLike, boards: ArrayLike) -> IntArray:
    """Omaha values of many hands: ``holes`` is an (N, 4) int array, ``boards`` an
    (N, 3), (N, 4) or (N, 5) one; row i of each is one hand (rule 21).

    Returns an int64 array of N values equal to ``evaluate_omaha`` row by row.
    Raises ValueError for other shapes, a non-integer array, a card outside
    0..51 or a row holding the same card twice.
    """
    hole_array, board_array = np.asarray(holes), np.asarray(boards)
    if hole_array.ndim != 2 or hole_array.shape[1] != 4:
        raise ValueError(f"holes must be an (N, 4) array, not {hole_array.shape}")
    if board_array.ndim != 2 or board_array.shape[1] not in _TRIPLES:
        raise ValueError(
            f"boards must be an (N, 3), (N, 4) or (N, 5) array, not {board_array.shape}"
        )
    if hole_array.shape[0] != board_array.shape[0]:
        raise ValueError(f"{hole_array.shape[0]} holes but {board_array.shape[0]} boards")
    every = np.concatenate((hole_array, board_array), axis=1)
    if not np.issubdtype(every.dtype, np.integer):
        raise ValueError(f"hands must hold integer cards, not {every.dtype}")
    if every.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    if every.min() < 0 or every.max() > 51:
        raise ValueError("hands hold a card outside 0..51")
    every = every.astype(np.int64)
    masks = np.bitwise_or.reduce(CARD_BIT_ARRAY[every], axis=1)
    repeats = np.flatnonzero(np.bitwise_count(masks) != every.shape[1])
    if repeats.size:
        raise ValueError(f"hand {repeats[0]} holds the same card twice: {every[repeats[0]]}")
    return omaha_values(every[:, :4], every[:, 4:])


def omaha_values(holes: IntArray, boards: IntArray) -> IntArray:
    """``evaluate_omaha_batch`` without the checks: int64 arrays of valid hands only."""
    return values_on(holes, OmahaBoards(boards))


class OmahaBoards:
    """What every hand valued on the same boards shares: each board's three-card rank
    multisets and its flush suit, worked out once for all the hands."""

    def __init__(self, boards: IntArray) -> None:
        hole_index, triple_index, self.best = _tables()
        self.hole_index = hole_index
        self.boards = boards
        self.triples = _TRIPLES[boards.shape[1]]
        codes = (boards >> 2)[:, self.triples] @ np.array([169, 13, 1])
        self.cells = triple_index[codes]
        self.suits = boards & 3
        counts = (self.suits[:, :, None] == np.arange(4)).sum(axis=1)
        self.suit = counts.argmax(axis=1)  # five cards hold at most one suit three times
        self.may_flush = counts.max(axis=1) >= 3


def values_on(holes: IntArray, boards: OmahaBoards) -> IntArray:
    """The Omaha values of ``holes`` (N, 4) on the N ``boards`` (one hole a row)."""
    hands = boards.hole_index[(holes >> 2) @ np.array([2197, 169, 13, 1])]
    cells = hands[:, None] * _TRIPLE_MULTISETS + boards.cells
    values: IntArray = boards.best.reshape(-1)[cells].max(axis=1)
    held = ((holes & 3) == boards.suit[:, None]).sum(axis=1)
    rows = np.flatnonzero(boards.may_flush & (held >= 2))
    if rows.size:
        values[rows] = np.maximum(values[rows], _best_flushes(holes[rows], boards, rows))
    return values


def _best_flushes(holes: IntArray, boards: OmahaBoards, rows: IntArray) -> IntArray:
    """The best flush of each of ``rows``: two of its hole cards with three of its board
    in the board's flush suit (0 where none)."""
    suit = boards.suit[rows, None]
    hole_bits = np.where((holes & 3) == suit, 1 << (holes >> 2), 0)
    board_bits = np.where(boards.suits[rows] == suit, 1 << (boards.boards[rows] >> 2), 0)
    first, second, third = boards.triples.T
    two = hole_bits[:, _PAIRS[:, 0]] | hole_bits[:, _PAIRS[:, 1]]
    three = board_bits[:, first] | board_bits[:, second] | board_bits[:, third]
    flushes: IntArray = FLUSH_ARRAY[(two[:, :, None] | three[:, None, :]).reshape(rows.size, -1)]
    best: IntArray = flushes.max(axis=1)
    return best

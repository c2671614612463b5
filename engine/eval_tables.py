"""Lookup tables behind ``engine.evaluator``, built once at import (tens of ms).

Every distinct 5-card poker hand class gets a value 1..7462 (higher wins).

A card's *key* packs, in one integer, everything the evaluator needs:

- bits 0..16: the base-5 count of the low ranks 2..8 (a card adds ``5**rank``),
- bits 17..30: the base-5 count of the high ranks 9..A (``5**(rank - 7) << 17``),
- bits 32..47: one nibble per suit counting that suit's cards,
- bit 48 + card (scalar path only): the card itself.

A hand holds at most four cards of a rank and seven cards in all, so summing
its cards' keys never carries from one digit or field into the next: the sum
names the rank multiset (and so the hand size) and the suit counts at once,
and a repeated card shows as a carry in the card bits (fewer bits than cards).

Non-flush hands are looked up by their rank multiset through a minimal perfect
hash, ``ROW[n][high part] + COL[low part]``, into a dense ``VALUES[n]`` array
(the multisets of size ``n`` ordered by high part, then by low part); the
scalar path uses a plain dict on the same keys. Flushes are looked up by the
13-bit rank mask of the flush suit in ``FLUSH``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

CATEGORIES = (
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
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH_CAT, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

LOW_RANKS = 7  # ranks 2..8 live in the low field, 9..A in the high field
HIGH_SHIFT = 17
LOW_MASK = (1 << HIGH_SHIFT) - 1
RANK_MASK = (1 << 31) - 1
SUIT_SHIFT = 32
CARD_SHIFT = 48
# Adding 3 to every suit nibble makes a count of 5+ set the nibble's top bit.
FLUSH_PROBE = sum(3 << (SUIT_SHIFT + 4 * s) for s in range(4))
FLUSH_BITS = sum(8 << (SUIT_SHIFT + 4 * s) for s in range(4))
FLUSH_BIT0 = SUIT_SHIFT + 3  # bit of suit 0's flush flag; suit s is 4*s higher

IntArray = NDArray[np.int64]
Score = tuple[int, ...]  # (category, tie-break ranks...) as poker compares them

RANK_KEY: tuple[int, ...] = tuple(
    5**r if r < LOW_RANKS else 5 ** (r - LOW_RANKS) << HIGH_SHIFT for r in range(13)
)
CARD_KEY: tuple[int, ...] = tuple(
    RANK_KEY[c >> 2] + (1 << (SUIT_SHIFT + 4 * (c & 3))) for c in range(52)
)
# Bit (suit * 13 + rank): the suit-major 52-bit mask of a hand's cards.
CARD_BIT: tuple[int, ...] = tuple(1 << ((c & 3) * 13 + (c >> 2)) for c in range(52))


def straight_high(rank_mask: int) -> int:
    """Highest straight's top rank in a 13-bit rank mask, or -1 (the wheel's top is 3)."""
    for high in range(12, 3, -1):
        window = 0x1F << (high - 4)
        if rank_mask & window == window:
            return high
    wheel = 0b1000000001111  # A-2-3-4-5
    return 3 if rank_mask & wheel == wheel else -1


def _score_of_counts(counts: Sequence[int]) -> Score:
    """Score of a five-card rank multiset whose cards are not all one suit."""
    groups = sorted(((c, r) for r, c in enumerate(counts) if c), reverse=True)
    shape = tuple(c for c, _ in groups)
    ranks = tuple(r for _, r in groups)
    if len(shape) == 5:
        high = straight_high(sum(1 << r for r in ranks))
        return (STRAIGHT, high) if high >= 0 else (HIGH_CARD, *ranks)
    by_shape = {(2, 1, 1, 1): PAIR, (2, 2, 1): TWO_PAIR, (3, 1, 1): TRIPS, (3, 2): FULL_HOUSE}
    return (by_shape.get(shape, QUADS), *ranks)


def _score_of_flush(rank_mask: int) -> Score:
    high = straight_high(rank_mask)
    if high >= 0:
        return (STRAIGHT_FLUSH, high)
    return (FLUSH_CAT, *(r for r in range(12, -1, -1) if rank_mask >> r & 1))


def _digits(count: int, places: int) -> NDArray[np.int64]:
    """Base-5 digits (least significant first) of 0..count-1: one row per number."""
    numbers = np.arange(count, dtype=np.int64)
    return np.stack([numbers // 5**p % 5 for p in range(places)], axis=1)


def _position_in_size(sizes: IntArray) -> IntArray:
    """For each multiset, its index among the multisets of the same size (by key)."""
    order = np.argsort(sizes, kind="stable")
    starts = np.searchsorted(sizes[order], sizes[order])
    position = np.empty_like(sizes)
    position[order] = np.arange(sizes.size) - starts
    return position


class _Multisets:
    """Rank multisets of sizes 5, 6 and 7 and their perfect-hash layout."""

    def __init__(self) -> None:
        self.low = _digits(5**LOW_RANKS, LOW_RANKS)
        self.high = _digits(5 ** (13 - LOW_RANKS), 13 - LOW_RANKS)
        self.low_size = self.low.sum(axis=1)
        self.high_size = self.high.sum(axis=1)
        self.col = _position_in_size(self.low_size)
        self.low_by_size = [np.flatnonzero(self.low_size == s) for s in range(8)]

    def layout(self, size: int) -> tuple[IntArray, IntArray]:
        """ROW table for hands of ``size`` cards and the rank counts in index order."""
        row = np.zeros(self.high.shape[0], dtype=np.int64)
        high_ids = np.flatnonzero(self.high_size <= size)
        block = np.array([self.low_by_size[size - self.high_size[h]].size for h in high_ids])
        row[high_ids] = np.concatenate(([0], np.cumsum(block)[:-1]))
        lows = np.concatenate([self.low_by_size[size - self.high_size[h]] for h in high_ids])
        highs = np.repeat(high_ids, block)
        counts = np.concatenate((self.low[lows], self.high[highs]), axis=1)
        return row, counts


def _ranked_classes(five_scores: list[Score]) -> tuple[list[Score], dict[Score, int]]:
    """All 7,462 scores in ascending order, and each score's value (1-based)."""
    scores = set(five_scores)
    masks = [m for m in range(1 << 13) if m.bit_count() == 5]
    scores.update(_score_of_flush(m) for m in masks)
    ordered = sorted(scores)
    return ordered, {score: i + 1 for i, score in enumerate(ordered)}


def _flush_table(value_of: dict[Score, int]) -> IntArray:
    """Best value of each 13-bit mask with 5+ bits; 0 for fewer than five ranks."""
    masks = np.arange(1 << 13, dtype=np.int64)
    bits = np.bitwise_count(masks)
    table = np.zeros(1 << 13, dtype=np.int64)
    for m in np.flatnonzero(bits == 5):
        table[m] = value_of[_score_of_flush(int(m))]
    for size in range(6, 14):
        wider = masks[bits == size]
        for r in range(13):
            has = wider[(wider >> r & 1) == 1]
            table[has] = np.maximum(table[has], table[has & ~(1 << r)])
    return table


class Tables:
    """Everything the evaluator looks up; see the module docstring."""

    def __init__(self) -> None:
        sets = _Multisets()
        self.col = sets.col
        rank_key = np.array(RANK_KEY, dtype=np.int64)
        self.row: dict[int, IntArray] = {}
        self.values: dict[int, IntArray] = {}
        self.nonflush: dict[int, int] = {}
        five_row, five_counts = sets.layout(5)
        five_scores = [_score_of_counts(counts) for counts in five_counts.tolist()]
        self.classes, value_of = _ranked_classes(five_scores)
        self.value_objects = list(range(len(self.classes) + 1))
        values = np.array([value_of[score] for score in five_scores])
        self._store(5, five_row, five_counts @ rank_key, values)
        for size in (6, 7):
            row, counts = sets.layout(size)
            keys = counts @ rank_key
            best = np.zeros(keys.size, dtype=np.int64)
            for r in range(13):  # best of the hands one card smaller
                has = np.flatnonzero(counts[:, r] > 0)
                best[has] = np.maximum(best[has], self.lookup(size - 1, keys[has] - RANK_KEY[r]))
            self._store(size, row, keys, best)
        self.flush = _flush_table(value_of)

    def _store(self, size: int, row: IntArray, keys: IntArray, values: IntArray) -> None:
        self.row[size] = row
        self.values[size] = values
        # One int object per value, shared by every key: a smaller, cache-friendlier dict.
        shared = [self.value_objects[v] for v in values.tolist()]
        self.nonflush.update(zip(keys.tolist(), shared, strict=True))

    def lookup(self, size: int, rank_keys: IntArray) -> IntArray:
        """Non-flush values of rank keys (rank fields only) of ``size``-card hands."""
        index = self.row[size][rank_keys >> HIGH_SHIFT] + self.col[rank_keys & LOW_MASK]
        values: IntArray = self.values[size][index]
        return values

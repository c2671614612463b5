"""All-in equity: each hand's share of the pot over every possible run-out.

``equity(hands, board, dead)`` enumerates every way to complete the board from
the unseen cards and splits each board's pot evenly among the tied winners:

>>> from engine.cards import cards
>>> [round(e, 4) for e in equity([cards("AsAh"), cards("KdKc")], board=cards("2c7d9h"))]
[0.9162, 0.0838]

``equity_vs_random(hole, ...)`` estimates one hand's equity against random
opponents by Monte Carlo, with the randomness passed in (bots use it).

Both run on the batch evaluator's key tables (``engine.evaluator``): a board's
summed card keys are computed once and each player's hole cards are added on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from math import comb
from random import Random

import numpy as np

from engine.evaluator import CARD_BIT_ARRAY, CARD_KEY_ARRAY, IntArray, values_of_keys

_SHARE_UNITS = 2520  # divisible by 1..10 tied winners, so shares stay exact integers
_CHUNK_ROWS = 200_000  # boards evaluated at once: bounds memory to a few MB per player
_BOARD_SIZES = (0, 3, 4, 5)


# Every run-out is enumerated: beyond six hands that costs more than a hand's end may spend.
MAX_HANDS = 6


def equity(
    hands: Sequence[Sequence[int]], board: Sequence[int] = (), dead: Sequence[int] = ()
) -> tuple[float, ...]:
    """Exact all-in equity of 2-6 hole-card pairs: each one's share of the pot (sums to 1).

    ``board`` holds 0, 3, 4 or 5 cards; ``dead`` cards are out of the deck (e.g.
    folded or burned cards someone saw). Every run-out is enumerated; ties split.
    """
    if not 2 <= len(hands) <= MAX_HANDS:
        raise ValueError(f"equity compares 2 to {MAX_HANDS} hands, not {len(hands)}")
    for hole in hands:
        if len(hole) != 2:
            raise ValueError(f"each hand has 2 hole cards, not {len(hole)}: {list(hole)}")
    deck = _unseen_deck([*(c for hole in hands for c in hole), *board, *dead], board)
    need = 5 - len(board)
    if need > deck.size:
        raise ValueError(f"only {deck.size} unseen cards left, the board needs {need}")
    holes = [_key_and_mask(hole) for hole in hands]
    won = np.zeros(len(hands), dtype=np.int64)
    boards = 0
    for board_keys, board_masks in _runouts(deck, need, *_key_and_mask(board)):
        won += _pot_shares(board_keys, board_masks, holes)
        boards += board_keys.size
    return tuple(float(w) / (_SHARE_UNITS * boards) for w in won)


def equity_vs_random(
    hole: Sequence[int],
    board: Sequence[int] = (),
    opponents: int = 1,
    samples: int = 10_000,
    *,
    rng: Random | np.random.Generator,
) -> float:
    """Monte-Carlo equity of ``hole`` against ``opponents`` random hands.

    Each sample deals the opponents' hole cards and the rest of the board at
    random from the unseen cards; the result is the average share of the pot
    (ties split). ``rng`` (a ``random.Random`` or numpy ``Generator``) is the
    only source of randomness, so a seeded rng gives a reproducible estimate.
    """
    if len(hole) != 2:
        raise ValueError(f"a hand has 2 hole cards, not {len(hole)}: {list(hole)}")
    if not 1 <= opponents <= 9:
        raise ValueError(f"opponents must be 1 to 9, not {opponents}")
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    deck = _unseen_deck([*hole, *board], board)
    generator = rng if isinstance(rng, np.random.Generator) else _generator_from(rng)
    missing = 5 - len(board)
    drawn = generator.permuted(np.tile(deck, (samples, 1)), axis=1)
    board_key, board_mask = _key_and_mask(board)
    board_keys, board_masks = _add_columns(drawn[:, :missing], board_key, board_mask)
    seats: list[tuple[int, int] | tuple[IntArray, IntArray]] = [_key_and_mask(hole)]
    for seat in range(opponents):
        first = missing + 2 * seat
        seats.append(_add_columns(drawn[:, first : first + 2], 0, 0))
    hero = _pot_shares(board_keys, board_masks, seats)[0]
    return float(hero) / (_SHARE_UNITS * samples)


def _generator_from(rng: Random) -> np.random.Generator:
    """A numpy generator seeded from ``rng``, so a seeded Random stays reproducible."""
    return np.random.default_rng(rng.getrandbits(128))


def _unseen_deck(seen: list[int], board: Sequence[int]) -> IntArray:
    """The cards nobody has seen, after checking the seen ones and the board size."""
    if len(board) not in _BOARD_SIZES:
        raise ValueError(f"a board has 0, 3, 4 or 5 cards, not {len(board)}")
    for c in seen:
        if not isinstance(c, int | np.integer) or not 0 <= c <= 51:
            raise ValueError(f"{c!r} is not a card: cards are 0..51")
    if len(set(seen)) != len(seen):
        repeated = sorted({c for c in seen if seen.count(c) > 1})
        raise ValueError(f"the same card appears twice: {repeated}")
    return np.array(sorted(set(range(52)) - set(seen)), dtype=np.int64)


def _key_and_mask(known: Sequence[int]) -> tuple[int, int]:
    """Summed card keys and OR-ed card bits of a few known cards."""
    return (
        sum(int(CARD_KEY_ARRAY[c]) for c in known),
        sum(int(CARD_BIT_ARRAY[c]) for c in known),
    )


def _add_columns(cards: IntArray, key: int, mask: int) -> tuple[IntArray, IntArray]:
    """Per-row keys and masks of ``cards`` (rows of cards) plus a known part."""
    keys = np.full(cards.shape[0], key, dtype=np.int64)
    masks = np.full(cards.shape[0], mask, dtype=np.int64)
    for j in range(cards.shape[1]):
        keys += CARD_KEY_ARRAY[cards[:, j]]
        masks |= CARD_BIT_ARRAY[cards[:, j]]
    return keys, masks


def _runouts(deck: IntArray, need: int, key: int, mask: int) -> Iterator[tuple[IntArray, IntArray]]:
    """Keys and masks of every completed board, a chunk at a time.

    Large enumerations go by their lowest card: in lexicographic order the
    combinations of the other cards that all lie above card ``i`` are the last
    ``comb(n - i - 1, need - 1)`` rows of one shared table, so each chunk is a
    slice of precomputed keys plus one card.
    """
    n = deck.size
    if comb(n, need) <= _CHUNK_ROWS:
        yield _add_columns(deck[_combinations(n, need)], key, mask)
        return
    rest_keys, rest_masks = _add_columns(deck[_combinations(n, need - 1)], key, mask)
    for lowest in range(n - need + 1):
        rows = comb(n - lowest - 1, need - 1)
        card = int(deck[lowest])
        yield rest_keys[-rows:] + CARD_KEY_ARRAY[card], rest_masks[-rows:] | CARD_BIT_ARRAY[card]


def _combinations(n: int, k: int) -> IntArray:
    """All k-subsets of range(n) as rows, in lexicographic order (vectorised)."""
    rows = np.zeros((1, 0), dtype=np.int64)
    last = np.full(1, -1, dtype=np.int64)
    for step in range(k):
        # each row continues with any element above its last that leaves room for the rest
        counts = (n - (k - step)) - last
        starts = np.repeat(last + 1, counts)
        offsets = np.arange(starts.size) - np.repeat(np.cumsum(counts) - counts, counts)
        last = starts + offsets
        rows = np.column_stack((np.repeat(rows, counts, axis=0), last))
    return rows


def _pot_shares(
    board_keys: IntArray,
    board_masks: IntArray,
    holes: Sequence[tuple[int, int] | tuple[IntArray, IntArray]],
) -> IntArray:
    """Each seat's pot shares (in 1/2520ths of a pot) summed over the given boards."""
    values = np.stack(
        [
            values_of_keys(board_keys + key, 7, _flush_masks(board_masks, mask))
            for key, mask in holes
        ]
    )
    winners = values == values.max(axis=0)
    shares = _SHARE_UNITS // winners.sum(axis=0)
    won: IntArray = (winners * shares).sum(axis=1)
    return won


def _flush_masks(
    board_masks: IntArray, hole_mask: int | IntArray
) -> Callable[[IntArray], IntArray]:
    """The card masks of chosen rows, for the evaluator's flush lookups."""

    def masks_of(rows: IntArray) -> IntArray:
        hole = hole_mask if isinstance(hole_mask, int) else hole_mask[rows]
        result: IntArray = board_masks[rows] | hole
        return result

    return masks_of

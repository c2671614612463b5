"""All-in equity: each hand's share of the pot over every possible run-out.

The game is read from the hands: two hole cards each is Hold'em, four each is
Omaha (valued by rule 21: two hole cards with three of the board).

``equity(hands, board, dead)`` enumerates every way to complete the board from
the unseen cards and splits each board's pot evenly among the tied winners:

>>> from engine.cards import cards
>>> [round(e, 4) for e in equity([cards("AsAh"), cards("KdKc")], board=cards("2c7d9h"))]
[0.9162, 0.0838]
>>> [round(e, 4) for e in equity([cards("AsAhKs2d"), cards("JdTd9c8c")], board=cards("Qd7d2c"))]
[0.511, 0.489]

``estimate_equity(...)`` does the same where enumerating is cheap and samples
run-outs at random where it is not (Omaha before the flop); its result says
which, and gives each sampled share's standard error.

``equity_vs_random(hole, ...)`` estimates one hand's equity against random
opponents by Monte Carlo, with the randomness passed in (bots use it).

Hold'em runs on the batch evaluator's key tables (``engine.evaluator``): a
board's summed card keys are computed once and each player's hole cards are
added on. Omaha runs on ``engine.omaha_batch``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from math import comb, sqrt
from random import Random

import numpy as np

from engine.evaluator import CARD_BIT_ARRAY, CARD_KEY_ARRAY, IntArray, values_of_keys
from engine.games import GAMES, NO_LIMIT_HOLDEM, POT_LIMIT_OMAHA, Game
from engine.omaha_batch import OmahaBoards, values_on

_SHARE_UNITS = 2520  # divisible by 1..10 tied winners, so shares stay exact integers
_CHUNK_ROWS = 200_000  # boards evaluated at once: bounds memory to a few MB per player
_BOARD_SIZES = (0, 3, 4, 5)
_GAME_OF_HOLE = {game.hole_card_count: game for game in GAMES.values()}


# Every run-out is enumerated: beyond six hands that costs more than a hand's end may spend.
MAX_HANDS = 6

EXACT_LIMITS = {NO_LIMIT_HOLDEM: 5_000_000, POT_LIMIT_OMAHA: 250_000}
"""The most hand-run-outs (run-outs times hands) ``estimate_equity`` enumerates by
default: about 0.1 s on the 2-core machine in either game. Every Hold'em spot of up
to six hands fits; in Omaha every flop and turn does, and no spot before the flop."""

SAMPLES = 20_000
"""Run-outs ``estimate_equity`` samples by default: a standard error of at most 0.35%."""


@dataclass(frozen=True, slots=True)
class EquityEstimate:
    """Each hand's share of the pot, counted exactly or estimated by sampling.

    ``exact``: every one of the ``runouts`` was enumerated and each
    ``standard_errors`` entry is 0. Otherwise ``runouts`` run-outs were drawn
    at random and each share's standard error is given: the exact share lies
    within four standard errors of the estimate except about once in 16,000.
    """

    shares: tuple[float, ...]
    exact: bool
    standard_errors: tuple[float, ...]
    runouts: int


def equity(
    hands: Sequence[Sequence[int]], board: Sequence[int] = (), dead: Sequence[int] = ()
) -> tuple[float, ...]:
    """Exact all-in equity of 2-6 hands: each one's share of the pot (sums to 1).

    ``hands`` hold two hole cards each (Hold'em) or four (Omaha); ``board``
    holds 0, 3, 4 or 5 cards; ``dead`` cards are out of the deck (e.g. folded
    or burned cards someone saw). Every run-out is enumerated; ties split.
    Omaha before the flop has a million run-outs heads-up (about a second):
    ``estimate_equity`` samples them instead.
    """
    game = _game_of(hands)
    deck, need = _deck_and_need(hands, board, dead)
    won = np.zeros(len(hands), dtype=np.int64)
    boards = 0
    for shares in _exact_shares(game, hands, board, deck, need):
        won += shares.sum(axis=1)
        boards += shares.shape[1]
    return tuple(float(w) / (_SHARE_UNITS * boards) for w in won)


def estimate_equity(
    hands: Sequence[Sequence[int]],
    board: Sequence[int] = (),
    dead: Sequence[int] = (),
    *,
    samples: int = SAMPLES,
    exact_limit: int | None = None,
    rng: Random | np.random.Generator | None = None,
) -> EquityEstimate:
    """All-in equity of 2-6 hands, exact where that is cheap and sampled where it is not.

    Every run-out is enumerated when there are at most ``exact_limit``
    hand-run-outs (run-outs times hands; the game's ``EXACT_LIMITS`` by
    default, 0 to always sample); otherwise ``samples`` run-outs are drawn
    with ``rng`` (a ``random.Random`` or numpy ``Generator``; fresh entropy
    when None) and each share comes with its standard error.
    """
    game = _game_of(hands)
    deck, need = _deck_and_need(hands, board, dead)
    limit = EXACT_LIMITS[game.code] if exact_limit is None else exact_limit
    runouts = comb(deck.size, need)
    if runouts * len(hands) <= limit:
        shares = tuple(equity(hands, board, dead))
        return EquityEstimate(shares, True, (0.0,) * len(hands), runouts)
    if samples < 2:
        raise ValueError(f"an estimate needs at least 2 samples, not {samples}")
    drawn = _sample_runouts(deck, need, samples, _generator(rng))
    share = _row_shares(_values(game, hands, board, drawn)) / _SHARE_UNITS
    errors = share.std(axis=1, ddof=1) / sqrt(samples)
    return EquityEstimate(
        tuple(float(s) for s in share.mean(axis=1)),
        False,
        tuple(float(e) for e in errors),
        samples,
    )


def equity_vs_random(
    hole: Sequence[int],
    board: Sequence[int] = (),
    opponents: int = 1,
    samples: int = 10_000,
    *,
    rng: Random | np.random.Generator,
) -> float:
    """Monte-Carlo equity of ``hole`` against ``opponents`` random hands of its game.

    ``hole`` holds two cards (Hold'em) or four (Omaha). Each sample deals the
    opponents' hole cards and the rest of the board at random from the unseen
    cards; the result is the average share of the pot (ties split). ``rng``
    (a ``random.Random`` or numpy ``Generator``) is the only source of
    randomness, so a seeded rng gives a reproducible estimate.
    """
    size = _hole_size(hole)
    if not 1 <= opponents <= 9:
        raise ValueError(f"opponents must be 1 to 9, not {opponents}")
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    deck = _unseen_deck([*hole, *board], board)
    missing = 5 - len(board)
    drawn = _generator(rng).permuted(np.tile(deck, (samples, 1)), axis=1)
    runouts = drawn[:, :missing]
    dealt = [
        drawn[:, missing + size * seat : missing + size * (seat + 1)] for seat in range(opponents)
    ]
    if size == 2:
        board_keys, board_masks = _add_columns(runouts, *_key_and_mask(board))
        seats: list[tuple[int, int] | tuple[IntArray, IntArray]] = [_key_and_mask(hole)]
        seats += [_add_columns(cards, 0, 0) for cards in dealt]
        values = _holdem_values(board_keys, board_masks, seats)
    else:
        boards = OmahaBoards(_full_boards(board, runouts))
        hero = np.broadcast_to(np.array(hole, dtype=np.int64), (samples, size))
        values = np.stack([values_on(cards, boards) for cards in (hero, *dealt)])
    won = _row_shares(values)[0].sum()
    return float(won) / (_SHARE_UNITS * samples)


def _game_of(hands: Sequence[Sequence[int]]) -> Game:
    """The game the hands are dealt in, after checking their count and sizes."""
    if not 2 <= len(hands) <= MAX_HANDS:
        raise ValueError(f"equity compares 2 to {MAX_HANDS} hands, not {len(hands)}")
    sizes = sorted({_hole_size(hole) for hole in hands})
    if len(sizes) > 1:
        raise ValueError(f"every hand has as many hole cards as the others, not {sizes}")
    return _GAME_OF_HOLE[sizes[0]]


def _hole_size(hole: Sequence[int]) -> int:
    if len(hole) not in _GAME_OF_HOLE:
        raise ValueError(
            f"a hand has 2 hole cards (Hold'em) or 4 (Omaha), not {len(hole)}: {list(hole)}"
        )
    return len(hole)


def _deck_and_need(
    hands: Sequence[Sequence[int]], board: Sequence[int], dead: Sequence[int]
) -> tuple[IntArray, int]:
    """The unseen cards and how many of them the board still needs."""
    deck = _unseen_deck([*(c for hole in hands for c in hole), *board, *dead], board)
    need = 5 - len(board)
    if need > deck.size:
        raise ValueError(f"only {deck.size} unseen cards left, the board needs {need}")
    return deck, need


def _generator(rng: Random | np.random.Generator | None) -> np.random.Generator:
    """A numpy generator: ``rng`` itself, or seeded from it so a seeded Random stays
    reproducible, or fresh entropy."""
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(None if rng is None else rng.getrandbits(128))


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


def _exact_shares(
    game: Game, hands: Sequence[Sequence[int]], board: Sequence[int], deck: IntArray, need: int
) -> Iterator[IntArray]:
    """Each hand's pot shares on every run-out, a chunk of run-outs at a time."""
    if game.code == NO_LIMIT_HOLDEM:
        holes = [_key_and_mask(hole) for hole in hands]
        for board_keys, board_masks in _runouts(deck, need, *_key_and_mask(board)):
            yield _row_shares(_holdem_values(board_keys, board_masks, holes))
        return
    for runouts in _runout_cards(deck, need):
        yield _row_shares(_values(game, hands, board, runouts))


def _values(
    game: Game, hands: Sequence[Sequence[int]], board: Sequence[int], runouts: IntArray
) -> IntArray:
    """Each hand's value (a row per hand) on the board completed by each run-out."""
    rows = runouts.shape[0]
    if game.code == NO_LIMIT_HOLDEM:
        board_keys, board_masks = _add_columns(runouts, *_key_and_mask(board))
        keys = [_key_and_mask(hole) for hole in hands]
        return _holdem_values(board_keys, board_masks, keys)
    boards = OmahaBoards(_full_boards(board, runouts))
    holes = [np.broadcast_to(np.array(hole, dtype=np.int64), (rows, 4)) for hole in hands]
    return np.stack([values_on(hole, boards) for hole in holes])


def _full_boards(board: Sequence[int], runouts: IntArray) -> IntArray:
    """The known ``board`` followed by each run-out, one board a row."""
    known = np.broadcast_to(np.array(board, dtype=np.int64), (runouts.shape[0], len(board)))
    return np.concatenate((known, runouts), axis=1)


def _sample_runouts(deck: IntArray, need: int, samples: int, rng: np.random.Generator) -> IntArray:
    """``samples`` run-outs of ``need`` distinct unseen cards each, drawn independently.

    Rows that drew a card twice are drawn again: what is kept is uniform over the
    run-outs, and a few cards from dozens repeat rarely, so this is far cheaper
    than shuffling the whole deck for every sample.
    """
    drawn = rng.integers(0, deck.size, size=(samples, need))
    again = np.arange(samples)
    while again.size:
        ordered = np.sort(drawn[again], axis=1)
        again = again[(ordered[:, 1:] == ordered[:, :-1]).any(axis=1)]
        drawn[again] = rng.integers(0, deck.size, size=(again.size, need))
    return deck[drawn]


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


def _runout_cards(deck: IntArray, need: int) -> Iterator[IntArray]:
    """Every run-out as rows of cards, a chunk at a time (by lowest card, as ``_runouts``)."""
    n = deck.size
    if comb(n, need) <= _CHUNK_ROWS:
        yield deck[_combinations(n, need)]
        return
    rest = deck[_combinations(n, need - 1)]
    for lowest in range(n - need + 1):
        rows = comb(n - lowest - 1, need - 1)
        yield np.column_stack((np.full(rows, deck[lowest]), rest[-rows:]))


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


def _holdem_values(
    board_keys: IntArray,
    board_masks: IntArray,
    holes: Sequence[tuple[int, int] | tuple[IntArray, IntArray]],
) -> IntArray:
    """Each seat's seven-card value (a row per seat) on each board."""
    return np.stack(
        [
            values_of_keys(board_keys + key, 7, _flush_masks(board_masks, mask))
            for key, mask in holes
        ]
    )


def _row_shares(values: IntArray) -> IntArray:
    """Each seat's pot share (in 1/2520ths of a pot) on each board, from its values."""
    winners = values == values.max(axis=0)
    shares: IntArray = winners * (_SHARE_UNITS // winners.sum(axis=0))
    return shares


def _flush_masks(
    board_masks: IntArray, hole_mask: int | IntArray
) -> Callable[[IntArray], IntArray]:
    """The card masks of chosen rows, for the evaluator's flush lookups."""

    def masks_of(rows: IntArray) -> IntArray:
        hole = hole_mask if isinstance(hole_mask, int) else hole_mask[rows]
        result: IntArray = board_masks[rows] | hole
        return result

    return masks_of

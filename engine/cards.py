"""Cards as small integers, and shuffling.

A card is ``rank * 4 + suit`` with ranks ``23456789TJQKA`` (0..12) and suits
``cdhs`` (0..3), so ``card("2c") == 0`` and ``card("As") == 51``.

>>> card_str(card("Td"))
'Td'
>>> cards("AsKd")
(51, 45)
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from random import Random

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK: tuple[int, ...] = tuple(range(52))


def card(text: str) -> int:
    """Parse one card such as ``"As"`` or ``"td"`` (rank case-insensitive)."""
    if len(text) != 2:
        raise ValueError(f"{text!r} is not a card: expected a rank and a suit, like 'As'")
    rank = RANKS.find(text[0].upper())
    suit = SUITS.find(text[1].lower())
    if rank < 0 or suit < 0:
        raise ValueError(f"{text!r} is not a card: ranks are {RANKS}, suits are {SUITS}")
    return rank * 4 + suit


def card_str(value: int) -> str:
    """Format one card: ``card_str(51) == "As"``."""
    if not 0 <= value < 52:
        raise ValueError(f"{value!r} is not a card: cards are 0..51")
    return RANKS[value // 4] + SUITS[value % 4]


def cards(text: str) -> tuple[int, ...]:
    """Parse a run of cards, with or without spaces: ``"AsKd 7c"``."""
    compact = "".join(text.split())
    if len(compact) % 2:
        raise ValueError(f"{text!r} is not a list of cards: each card is two characters")
    return tuple(card(compact[i : i + 2]) for i in range(0, len(compact), 2))


def cards_str(values: Sequence[int]) -> str:
    """Format cards without separators: ``cards_str((51, 45)) == "AsKd"``."""
    return "".join(card_str(v) for v in values)


def shuffle(values: Sequence[int], rng: Random | None = None) -> tuple[int, ...]:
    """Fisher-Yates shuffle into a new tuple.

    Uses ``secrets`` (a CSPRNG) unless a seeded ``random.Random`` is given,
    which tests and replays use for a reproducible order.
    """
    out = list(values)
    if type(rng) is Random:
        _shuffle_with_bits(out, rng.getrandbits)
        return tuple(out)
    below = secrets.randbelow if rng is None else rng.randrange
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def _shuffle_with_bits(out: list[int], getrandbits: Callable[[int], int]) -> None:
    """The same swaps as ``randrange(i + 1)`` makes for a plain ``Random``
    (rejection sampling over ``(i + 1).bit_length()`` bits), without its
    per-call overhead: a seeded deck comes out card for card the same."""
    for i in range(len(out) - 1, 0, -1):
        size = i + 1
        bits = size.bit_length()
        j = getrandbits(bits)
        while j >= size:
            j = getrandbits(bits)
        out[i], out[j] = out[j], out[i]


def new_deck(rng: Random | None = None) -> tuple[int, ...]:
    """A freshly shuffled 52-card deck; the first card is dealt first."""
    return shuffle(DECK, rng)

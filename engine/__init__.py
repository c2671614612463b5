"""Felt's poker engine: pure Python No-Limit Texas Hold'em.

The public surface is documented in ENGINE_API.md; everything a caller needs
is re-exported here.
"""

from engine.cards import DECK, RANKS, SUITS, card, card_str, cards, cards_str, new_deck, shuffle

__all__ = [
    "DECK",
    "RANKS",
    "SUITS",
    "card",
    "card_str",
    "cards",
    "cards_str",
    "new_deck",
    "shuffle",
]

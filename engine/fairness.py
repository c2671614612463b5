"""Provably fair dealing: a hand's deck is committed to before the first card is dealt,
and each player can check afterwards the cards they saw, and only those.

The scheme, for anyone writing a verifier:

- Every deck position ``i`` (0 is the first card dealt) gets a fresh 128-bit salt
  and a leaf ``sha256("<i>:<card>:<salt hex>")`` in lowercase hex, UTF-8, e.g.
  ``"0:As:3f9c..."``.
- The hand's commitment is ``sha256`` of the 52 leaves' hex strings joined in
  position order, in lowercase hex.
- The dealing order: the players dealt in, starting with the first one left
  of the button, get positions ``0 .. P-1`` as their first card and ``P .. 2P-1``
  as their second (P players). The board follows without burn cards: the flop
  is ``2P .. 2P+2``, the turn ``2P+3`` and the river ``2P+4``.
- After the hand a viewer is given the salt of each position whose card they
  saw: their own hole cards, the board dealt, and cards shown at showdown.
  A folded or mucked hand's salts stay secret: with one, the card could be
  found by trying all 52.

>>> from engine.cards import DECK
>>> seal = seal_deck(DECK, salts=["00" * 16] * 52)
>>> seal.leaves[0] == leaf(0, "2c", "00" * 16)
True
>>> commitment_of(seal.leaves) == seal.commitment
True
>>> dealing_order(button=3, seats=[0, 3, 5])
(5, 0, 3)
>>> hole_positions((5, 0, 3), seat=0), list(board_positions(3, 5))
((1, 4), [6, 7, 8, 9, 10])
"""

from __future__ import annotations

import hashlib
import re
import secrets
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.cards import card_str
from engine.state import HandState
from engine.view import EVERY_CARD, sees_hole_cards

DECK_SIZE = 52
SALT_BYTES = 16  # 128 bits
_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")
Viewer = int | None | Literal["every card"]


@dataclass(frozen=True)
class DeckSeal:
    """A deck's salts (secret until their card is shown), leaves and commitment."""

    salts: tuple[str, ...]
    leaves: tuple[str, ...]
    commitment: str


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def leaf(position: int, card: str, salt: str) -> str:
    """The leaf of deck position ``position`` holding ``card`` (e.g. "As")."""
    return sha256_hex(f"{position}:{card}:{salt}")


def commitment_of(leaves: Iterable[str]) -> str:
    return sha256_hex("".join(leaves))


def seal_deck(deck: Sequence[int], salts: Sequence[str] | None = None) -> DeckSeal:
    """Commit to ``deck`` (52 cards in dealing order); fresh salts from ``secrets``
    unless given."""
    if len(deck) != DECK_SIZE:
        raise ValueError(f"a sealed deck has {DECK_SIZE} cards, not {len(deck)}")
    if salts is None:
        salts = [secrets.token_hex(SALT_BYTES) for _ in range(DECK_SIZE)]
    if len(salts) != DECK_SIZE:
        raise ValueError(f"a sealed deck needs {DECK_SIZE} salts, not {len(salts)}")
    pairs = enumerate(zip(deck, salts, strict=True))
    leaves = tuple(leaf(i, card_str(card), salt) for i, (card, salt) in pairs)
    return DeckSeal(tuple(salts), leaves, commitment_of(leaves))


def dealing_order(button: int, seats: Iterable[int]) -> tuple[int, ...]:
    """The seats dealt in, in the order they get cards: from the first left of the button."""
    players = sorted(seats)
    first = bisect_right(players, button)
    return tuple(players[first:] + players[:first])


def hole_positions(order: Sequence[int], seat: int) -> tuple[int, int]:
    """The deck positions of ``seat``'s two hole cards."""
    index = order.index(seat)
    return index, index + len(order)


def board_positions(player_count: int, cards_dealt: int) -> range:
    """The deck positions of the first ``cards_dealt`` board cards."""
    return range(2 * player_count, 2 * player_count + cards_dealt)


def revealed_positions(state: HandState, viewer: Viewer) -> list[int]:
    """The positions whose cards ``viewer`` saw, in order: a seat, None for a spectator,
    or ``EVERY_CARD`` (staff settling a dispute: every card dealt)."""
    order = dealing_order(state.button, state.players)
    positions = list(board_positions(len(order), len(state.board)))
    for seat in order:
        if viewer == EVERY_CARD or sees_hole_cards(state, viewer, seat):
            positions.extend(hole_positions(order, seat))
    return sorted(positions)


def revealed(state: HandState, viewer: Viewer, salts: Sequence[str]) -> list[dict[str, Any]]:
    """What ``viewer`` is given to check: each position they saw, its card and its salt."""
    return [
        {"position": i, "card": card_str(state.deck[i]), "salt": salts[i]}
        for i in revealed_positions(state, viewer)
    ]


def verify(
    fairness: Mapping[str, Any],
    *,
    button: int,
    hole_cards: Mapping[int, Sequence[str] | None],
    board: Sequence[str],
) -> list[str]:
    """What does not match in a hand's ``fairness`` object; an empty list when all does.

    ``hole_cards`` maps every seat dealt in to the two cards the viewer saw there
    (None where they saw none); ``board`` is the board as the hand shows it.
    """
    leaves = list(fairness.get("leaves") or [])
    if len(leaves) != DECK_SIZE or not all(
        isinstance(item, str) and _HEX_DIGEST.fullmatch(item) for item in leaves
    ):
        return [f"leaves: expected {DECK_SIZE} lowercase sha256 hex strings"]
    problems = []
    if commitment_of(leaves) != fairness.get("commitment"):
        problems.append("commitment: the leaves do not hash to it")
    shown = _cards_shown(button, hole_cards, board)
    given: dict[int, str] = {}
    for entry in fairness.get("revealed") or []:
        position, card, salt = entry.get("position"), entry.get("card"), entry.get("salt")
        if not isinstance(position, int) or not 0 <= position < DECK_SIZE:
            problems.append(f"revealed: no deck position {position!r}")
            continue
        given[position] = card
        if leaf(position, str(card), str(salt)) != leaves[position]:
            problems.append(f"position {position}: {card} with its salt does not hash to the leaf")
    for position, card in sorted(shown.items()):
        if position not in given:
            problems.append(f"position {position}: {card} is shown but was not revealed")
        elif given[position] != card:
            problems.append(
                f"position {position}: revealed {given[position]}, the hand shows {card}"
            )
    problems.extend(
        f"position {position}: revealed, but the hand shows no card dealt from it"
        for position in sorted(set(given) - set(shown))
    )
    return problems


def _cards_shown(
    button: int, hole_cards: Mapping[int, Sequence[str] | None], board: Sequence[str]
) -> dict[int, str]:
    """Deck position -> card, for every card the hand shows the viewer."""
    order = dealing_order(button, hole_cards)
    shown = dict(zip(board_positions(len(order), len(board)), board, strict=True))
    for seat, cards in hole_cards.items():
        if cards:
            shown.update(zip(hole_positions(order, seat), cards, strict=True))
    return shown

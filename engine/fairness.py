"""Provably fair dealing: a hand's deck is committed to before the first card is dealt,
and each player can check afterwards the cards they saw, and only those.

The scheme, for anyone writing a verifier:

- Every deck position ``i`` (0 is the first card dealt) gets a fresh 128-bit salt
  and a leaf ``sha256("<i>:<card>:<salt hex>")`` in lowercase hex, UTF-8, e.g.
  ``"0:As:3f9c..."``. A hand with a players' cut (engine.cut) deals the sealed
  deck in the cut's order: there ``i`` is the sealed position, and dealt position
  ``d`` is taken from sealed position ``permutation[d]``.
- The hand's commitment is ``sha256`` of the 52 leaves' hex strings joined in
  position order, in lowercase hex.
- The dealing order: the players dealt in, starting with the first one left
  of the button, get one card a round for as many rounds as the game deals
  hole cards (H: two in Hold'em, four in Omaha): positions ``0 .. P-1`` are
  the first round, ``P .. 2P-1`` the second, and so on (P players). The board
  follows without burn cards: the flop is ``HP .. HP+2``, the turn ``HP+3``
  and the river ``HP+4``.
- After the hand a viewer is given the salt of each (dealt) position whose card they
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
>>> hole_positions((5, 0, 3), seat=0, hole_card_count=4), list(board_positions(3, 5, 4))
((1, 4, 7, 10), [12, 13, 14, 15, 16])
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
from engine.cut import verify_cut
from engine.games import GAMES, NO_LIMIT_HOLDEM, game_named
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


def hole_positions(order: Sequence[int], seat: int, hole_card_count: int = 2) -> tuple[int, ...]:
    """The deck positions of ``seat``'s hole cards, one per round of dealing (the
    game's ``hole_card_count``: Hold'em's two unless told)."""
    index = order.index(seat)
    return tuple(index + len(order) * round_ for round_ in range(hole_card_count))


def board_positions(player_count: int, cards_dealt: int, hole_card_count: int = 2) -> range:
    """The deck positions of the first ``cards_dealt`` board cards, which follow the
    ``hole_card_count`` rounds of hole cards (Hold'em's two unless told)."""
    first = hole_card_count * player_count
    return range(first, first + cards_dealt)


def dealt_board(state: HandState) -> tuple[int, ...]:
    """Every board card in the order the deck dealt them: the board, then the cards
    of a second run-out that the first did not have (rule 25), which follow it."""
    return state.board + tuple([c for c in state.second_board if c not in state.board])


def revealed_positions(state: HandState, viewer: Viewer) -> list[int]:
    """The positions whose cards ``viewer`` saw, in order: a seat, None for a spectator,
    or ``EVERY_CARD`` (staff settling a dispute: every card dealt)."""
    order = dealing_order(state.button, state.players)
    rounds = GAMES[state.game].hole_card_count
    positions = list(board_positions(len(order), len(dealt_board(state)), rounds))
    for seat in order:
        if viewer == EVERY_CARD or sees_hole_cards(state, viewer, seat):
            positions.extend(hole_positions(order, seat, rounds))
    return sorted(positions)


def revealed(
    state: HandState,
    viewer: Viewer,
    salts: Sequence[str],
    permutation: Sequence[int] | None = None,
) -> list[dict[str, Any]]:
    """What ``viewer`` is given to check: each dealt position they saw, its card and its
    salt. ``salts`` are the sealed deck's; a cut hand (engine.cut) takes dealt position
    ``i``'s salt from sealed position ``permutation[i]`` (``state.deck`` is the cut deck)."""
    sealed = range(DECK_SIZE) if permutation is None else permutation
    return [
        {"position": i, "card": card_str(state.deck[i]), "salt": salts[sealed[i]]}
        for i in revealed_positions(state, viewer)
    ]


def verify(
    fairness: Mapping[str, Any],
    *,
    button: int,
    hole_cards: Mapping[int, Sequence[str] | None],
    board: Sequence[str],
    game: str | None = None,
    published_commitment: str | None = None,
    own_value: str | None = None,
) -> list[str]:
    """What does not match in a hand's ``fairness`` object; an empty list when all does.

    ``hole_cards`` maps every seat dealt in to the cards the viewer saw there
    (None where they saw none); ``board`` is the board as the hand shows it,
    followed, for a hand run twice, by the second board's own cards
    (``dealt_board``).
    ``game`` is the hand's game code; without it the game is told by the
    number of hole cards shown (four: Omaha), and a hand that shows none is
    Hold'em, as every hand recorded before Omaha was.
    A ``fairness`` with a ``cut`` object (engine.cut) is checked with it: the
    revealed positions are dealt positions, each opening the leaf at the sealed
    position the cut takes it from. ``published_commitment`` is the seal the
    viewer was shown before the deal (and before revealing a cut value);
    ``own_value`` the cut value the viewer's client revealed in time.
    """
    leaves = list(fairness.get("leaves") or [])
    if len(leaves) != DECK_SIZE or not all(
        isinstance(item, str) and _HEX_DIGEST.fullmatch(item) for item in leaves
    ):
        return [f"leaves: expected {DECK_SIZE} lowercase sha256 hex strings"]
    rounds, problems = _hole_card_count(game, hole_cards)
    if rounds is None:
        return problems
    commitment = fairness.get("commitment")
    if commitment_of(leaves) != commitment:
        problems.append("commitment: the leaves do not hash to it")
    if published_commitment is not None and published_commitment != commitment:
        problems.append(f"commitment: not the seal shown before the deal, {published_commitment}")
    permutation: Sequence[int] | None = None
    if "cut" in fairness:
        permutation, cut_problems = verify_cut(fairness["cut"], str(commitment), own_value)
        problems.extend(cut_problems)
        if permutation is None:
            return problems
    given = _check_revealed(fairness.get("revealed") or [], leaves, permutation, problems)
    shown = _cards_shown(button, hole_cards, board, rounds)
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


def _check_revealed(
    entries: Iterable[Mapping[str, Any]],
    leaves: Sequence[str],
    permutation: Sequence[int] | None,
    problems: list[str],
) -> dict[int, str]:
    """Dealt position -> card revealed there; each card and salt must open the leaf of
    the sealed position it was dealt from (the same position when the hand has no cut)."""
    given: dict[int, str] = {}
    for entry in entries:
        position, card, salt = entry.get("position"), str(entry.get("card")), entry.get("salt")
        if not isinstance(position, int) or not 0 <= position < DECK_SIZE:
            problems.append(f"revealed: no deck position {position!r}")
            continue
        given[position] = card
        sealed = position if permutation is None else permutation[position]
        where = f"position {position}" + ("" if sealed == position else f" (sealed {sealed})")
        if leaf(sealed, card, str(salt)) != leaves[sealed]:
            problems.append(f"{where}: {card} with its salt does not hash to the leaf")
    return given


def _hole_card_count(
    game: str | None, hole_cards: Mapping[int, Sequence[str] | None]
) -> tuple[int | None, list[str]]:
    """How many rounds of hole cards the hand dealt, and what does not fit with it;
    None when the hand does not say (the other positions cannot be placed then)."""
    counts = {len(cards) for cards in hole_cards.values() if cards}
    if game is not None:
        try:
            expected = game_named(game)
        except ValueError as error:
            return None, [f"game: {error}"]
        return expected.hole_card_count, [
            f"seat {seat}: shows {len(cards)} hole cards, {expected.name} deals "
            f"{expected.hole_card_count}"
            for seat, cards in sorted(hole_cards.items())
            if cards and len(cards) != expected.hole_card_count
        ]
    if len(counts) > 1 or not counts <= {g.hole_card_count for g in GAMES.values()}:
        games = " or ".join(f"{g.hole_card_count} ({g.name})" for g in GAMES.values())
        shows = " and ".join(map(str, sorted(counts)))
        return None, [f"hole cards: seats show {shows} cards; every seat is dealt {games}"]
    return counts.pop() if counts else GAMES[NO_LIMIT_HOLDEM].hole_card_count, []


def _cards_shown(
    button: int,
    hole_cards: Mapping[int, Sequence[str] | None],
    board: Sequence[str],
    rounds: int,
) -> dict[int, str]:
    """Deck position -> card, for every card the hand shows the viewer."""
    order = dealing_order(button, hole_cards)
    shown = dict(zip(board_positions(len(order), len(board), rounds), board, strict=True))
    for seat, cards in hole_cards.items():
        if cards and len(cards) == rounds:
            shown.update(zip(hole_positions(order, seat, rounds), cards, strict=True))
    return shown

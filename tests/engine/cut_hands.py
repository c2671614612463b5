"""Hands dealt as the cut protocol deals them (docs/fairness.md, "The cut"), and each
viewer's API answer for them, for the verifier's tests."""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Any

from engine.cards import card_str, new_deck
from engine.cut import Cut, contribution_commitment, cut_deck, make_cut
from engine.deal import new_hand
from engine.fairness import (
    DeckSeal,
    dealt_board,
    revealed,
    seal_deck,
)
from engine.games import NO_LIMIT_HOLDEM, POT_LIMIT_OMAHA
from engine.state import HandState
from tests.engine.history_helpers import play_randomly
from tests.engine.test_fairness import players_as_seen


@dataclass(frozen=True)
class CutHand:
    """A finished hand with its seal (over the sealed deck), its cut and the values."""

    state: HandState
    seal: DeckSeal
    cut: Cut
    values: tuple[str, ...]


def cut_hand(rng: Random) -> CutHand:
    """The protocol in order: seal a shuffled deck, take 0-3 committed values (one in
    five never revealed), cut, then deal and play the cut deck at random."""
    sealed_deck = new_deck(rng)
    seal = seal_deck(sealed_deck, [f"{rng.getrandbits(128):032x}" for _ in range(52)])
    hand_ref = f"{rng.randint(1, 99)}:{rng.randint(1, 9999)}"
    values = tuple(f"{rng.getrandbits(256):064x}" for _ in range(rng.randint(0, 3)))
    contributions = [
        (contribution_commitment(hand_ref, value), value if rng.random() < 0.8 else None)
        for value in values
    ]
    cut = make_cut(hand_ref, seal.commitment, contributions)
    players = rng.randint(2, 6)
    stacks: list[int | None] = [rng.randint(1, 3000) for _ in range(players)]
    game = rng.choice([NO_LIMIT_HOLDEM, POT_LIMIT_OMAHA])
    deck = cut_deck(sealed_deck, cut.permutation)
    state = new_hand(stacks, rng.randrange(players), 10, 20, deck=deck, game=game)
    return CutHand(play_randomly(state, rng), seal, cut, values)


def api_hand(hand: CutHand, viewer: int | None) -> dict[str, Any]:
    """The hand as the history API would give it to ``viewer``, cut object included."""
    state = hand.state
    return {
        "game": state.game,
        "button": state.button,
        "players": players_as_seen(state, viewer),
        "board": [card_str(card) for card in dealt_board(state)],
        "fairness": {
            "commitment": hand.seal.commitment,
            "leaves": list(hand.seal.leaves),
            "revealed": revealed(state, viewer, hand.seal.salts, hand.cut.permutation),
            "cut": hand.cut.as_json(),
        },
    }

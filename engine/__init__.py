"""Felt's poker engine: pure Python No-Limit Hold'em and Pot-Limit Omaha.

The public surface is documented in docs/engine.md; everything a caller needs is
re-exported here.
"""

from engine.actions import Action, Call, Check, Fold, IllegalAction, RaiseTo, parse_action
from engine.betting import LegalActions, apply_action, legal_actions
from engine.bots import choose_action
from engine.bounties import knockouts, progressive_bounty, split_bounty
from engine.cards import DECK, RANKS, SUITS, card, card_str, cards, cards_str, new_deck, shuffle
from engine.cut import (
    Cut,
    MalformedCut,
    check_contribution,
    contribution_commitment,
    cut_deck,
    cut_permutation,
    make_cut,
    permutation_digest,
)
from engine.deal import new_hand, under_the_gun
from engine.equity import MAX_HANDS as EQUITY_MAX_HANDS
from engine.equity import EquityEstimate, equity, equity_vs_random, estimate_equity
from engine.evaluator import (
    best_five,
    category,
    describe,
    evaluate,
    evaluate_batch,
    evaluate_omaha,
    strength,
)
from engine.events import (
    AntePosted,
    BlindPosted,
    BoardDealt,
    CardsMucked,
    CardsShown,
    Event,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
    RunoutsChosen,
    UncalledBetReturned,
    event_from_dict,
)
from engine.fairness import DeckSeal, revealed, seal_deck
from engine.formats.phh import EVERY_CARD, PhhError, PhhIllegalAction, from_phh, phh_order, to_phh
from engine.formats.pokerstars import BountyTaken, to_pokerstars
from engine.games import GAMES, NO_LIMIT_HOLDEM, POT_LIMIT_OMAHA, Game, game_named
from engine.icm import chip_chop_deal, chip_chop_equities, icm_deal, icm_equities
from engine.omaha_batch import evaluate_omaha_batch
from engine.positions import Positions, first_positions, next_positions, seats_passed
from engine.pots import Pot
from engine.quick_structure import SPEEDS, QuickStructure, quick_structure
from engine.replay import replay, replay_onward
from engine.seating import Move, SeatingPlan, TableSeating, draw, plan
from engine.state import NO_SMALL_BLIND, HandState
from engine.streets import choose_runouts
from engine.tournament import (
    HYPER,
    REGULAR,
    STRUCTURES,
    TURBO,
    BlindLevel,
    BlindStructure,
    finishing_places,
    payouts,
)
from engine.view import sees_hole_cards, view, views

__all__ = [
    "EQUITY_MAX_HANDS",
    "EquityEstimate",
    "estimate_equity",
    "evaluate_omaha_batch",
    "DeckSeal",
    "revealed",
    "seal_deck",
    "Cut",
    "MalformedCut",
    "check_contribution",
    "contribution_commitment",
    "cut_deck",
    "cut_permutation",
    "make_cut",
    "permutation_digest",
    "DECK",
    "EVERY_CARD",
    "GAMES",
    "NO_LIMIT_HOLDEM",
    "POT_LIMIT_OMAHA",
    "Game",
    "game_named",
    "HYPER",
    "NO_SMALL_BLIND",
    "RANKS",
    "REGULAR",
    "STRUCTURES",
    "SUITS",
    "TURBO",
    "Action",
    "AntePosted",
    "BlindLevel",
    "BlindPosted",
    "BlindStructure",
    "BoardDealt",
    "Call",
    "CardsMucked",
    "CardsShown",
    "Check",
    "Event",
    "Fold",
    "HandEnded",
    "HandStarted",
    "HandState",
    "HoleCardsDealt",
    "IllegalAction",
    "LegalActions",
    "Move",
    "PhhError",
    "PhhIllegalAction",
    "PlayerActed",
    "Positions",
    "Pot",
    "QuickStructure",
    "SPEEDS",
    "quick_structure",
    "PotAwarded",
    "RaiseTo",
    "RunoutsChosen",
    "SeatingPlan",
    "TableSeating",
    "UncalledBetReturned",
    "apply_action",
    "card",
    "card_str",
    "cards",
    "cards_str",
    "category",
    "choose_action",
    "choose_runouts",
    "chip_chop_deal",
    "chip_chop_equities",
    "best_five",
    "describe",
    "draw",
    "equity",
    "equity_vs_random",
    "evaluate",
    "evaluate_batch",
    "evaluate_omaha",
    "strength",
    "event_from_dict",
    "finishing_places",
    "first_positions",
    "from_phh",
    "icm_deal",
    "icm_equities",
    "knockouts",
    "legal_actions",
    "new_deck",
    "new_hand",
    "next_positions",
    "parse_action",
    "payouts",
    "phh_order",
    "plan",
    "progressive_bounty",
    "replay",
    "replay_onward",
    "seats_passed",
    "sees_hole_cards",
    "shuffle",
    "split_bounty",
    "to_phh",
    "to_pokerstars",
    "BountyTaken",
    "under_the_gun",
    "view",
    "views",
]

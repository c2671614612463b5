"""The hand-history API's bodies, field by field (nothing else is ever sent).

The hand detail is built by ``tables.history.projection.hand_detail`` from the
viewer's projection; these serializers name and document each field and drop
anything not listed.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tables.models import HandPlayer

CARD_HELP = 'A card as rank and suit, e.g. "As", "Td".'


class HandListItemSerializer(serializers.ModelSerializer[HandPlayer]):
    """One of the requester's hands; ``net`` and ``hole_cards`` are the requester's own."""

    id = serializers.IntegerField(source="hand_id", help_text="The hand's id.")
    table = serializers.IntegerField(source="hand.table_id", help_text="The table's id.")
    table_name = serializers.CharField(source="hand.table.name")
    kind = serializers.CharField(source="hand.table.kind")
    number = serializers.IntegerField(source="hand.number", help_text="Hand number at the table.")
    board = serializers.ListField(
        child=serializers.CharField(help_text=CARD_HELP), source="hand.board"
    )
    pot = serializers.IntegerField(source="hand.pot")
    ended_at = serializers.DateTimeField(
        source="hand.ended_at", help_text="When the hand ended: the ended_since filter's key."
    )
    big_blind = serializers.IntegerField(source="hand.big_blind")
    hole_cards = serializers.ListField(
        child=serializers.CharField(help_text=CARD_HELP),
        help_text="Your own cards: two, or four in Omaha.",
    )

    class Meta:
        model = HandPlayer
        fields = (
            "id",
            "table",
            "table_name",
            "kind",
            "number",
            "ended_at",
            "started_at",
            "seat",
            "position",
            "hole_cards",
            "board",
            "pot",
            "big_blind",
            "net",
            "went_to_showdown",
        )
        read_only_fields = fields


class HandPlayerViewSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(help_text="0-based seat number.")
    name = serializers.CharField(help_text="The name shown at the table.")
    username = serializers.CharField(allow_null=True, help_text="Null for a bot.")
    is_bot = serializers.BooleanField()
    position = serializers.CharField(help_text="BTN, SB, BB, CO, HJ or UTG.")
    starting_stack = serializers.IntegerField()
    final_stack = serializers.IntegerField()
    net = serializers.IntegerField(help_text="Chips won (or lost, negative) in the hand.")
    hole_cards = serializers.ListField(
        child=serializers.CharField(help_text=CARD_HELP),
        allow_null=True,
        help_text="Two cards, or null when the viewer never saw them.",
    )
    was_shown = serializers.BooleanField(help_text="Turned face up at the table.")
    allin_ev = serializers.FloatField(help_text="Expected net chips (all-in EV); else the net.")


class HandActionSerializer(serializers.Serializer[Any]):
    street = serializers.CharField(help_text="preflop, flop, turn or river.")
    seat = serializers.IntegerField()
    name = serializers.CharField()
    action = serializers.CharField(
        help_text="ante, small_blind, big_blind, fold, check, call, bet, raise or "
        "uncalled_bet_returned."
    )
    amount = serializers.IntegerField(help_text="Chips this action put in (or got back).")
    total = serializers.IntegerField(
        allow_null=True, help_text="The seat's bet on the street afterwards."
    )
    is_all_in = serializers.BooleanField()


class PotWinnerSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    amount = serializers.IntegerField()


class PotSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField(help_text="0 is the main pot.")
    amount = serializers.IntegerField()
    eligible = serializers.ListField(child=serializers.IntegerField())
    winners = PotWinnerSerializer(many=True)
    hand = serializers.CharField(allow_null=True, help_text="The winning hand; null uncontested.")
    board = serializers.IntegerField(
        help_text="The board this share of the pot was played on: 1, or 2 for the second"
        " half of a pot run twice."
    )


class RevealedCardSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField(help_text="The deck position, 0 being dealt first.")
    card = serializers.CharField(help_text=CARD_HELP)
    salt = serializers.CharField(help_text="The position's 128-bit salt, in hex.")


class HandLogSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField(help_text="The hand's entry in the public log.")
    entry = serializers.CharField(help_text="The entry's canonical JSON, exactly as hashed.")
    tree_size = serializers.IntegerField(help_text="The signed head the proof is for.")
    root_hash = serializers.CharField(help_text="That head's tree hash, lowercase hex.")
    timestamp = serializers.CharField(help_text="That head's time (ISO-8601 UTC).")
    signature = serializers.CharField(help_text="That head's Ed25519 signature, hex.")
    public_key = serializers.CharField(help_text="The Ed25519 key that signed it, hex.")
    inclusion_proof = serializers.ListField(
        child=serializers.CharField(), help_text="The entry's RFC 6962 audit path, bottom up."
    )


class CutContributionSerializer(serializers.Serializer[Any]):
    commitment = serializers.CharField(
        help_text='sha256("felt-cut-value:<hand>:<value>") in lowercase hex.'
    )
    value = serializers.CharField(
        allow_null=True, help_text="The value revealed (64 hex digits); null: left out."
    )


class CutSerializer(serializers.Serializer[Any]):
    hand = serializers.CharField(help_text="The hand's opaque reference in the cut.")
    contributions = CutContributionSerializer(
        many=True, help_text="The closed list of commitments, sorted, with their values."
    )
    seed = serializers.CharField(help_text="The cut's seed (hex), from the seal and the values.")
    permutation_digest = serializers.CharField(help_text="sha256 of the permutation (hex).")
    uncut = serializers.BooleanField(help_text="No player's value went into the cut.")


class FairnessSerializer(serializers.Serializer[Any]):
    commitment = serializers.CharField(
        help_text="sha256 of the 52 leaves joined in position order (lowercase hex), "
        "shown at the table from the deal on."
    )
    leaves = serializers.ListField(
        child=serializers.CharField(), help_text='sha256("<position>:<card>:<salt>") per position.'
    )
    revealed = RevealedCardSerializer(
        many=True,
        help_text="Exactly the positions whose cards you saw in this hand (dealt positions:"
        " with a cut, each salt is the sealed position's the cut dealt it from).",
    )
    cut = CutSerializer(
        required=False,
        help_text="The players' cut the deck was dealt in (docs/fairness.md); absent for a"
        " hand dealt before it.",
    )
    log = HandLogSerializer(
        allow_null=True,
        help_text="The hand's place in the public log (docs/fairness.md); null until it is"
        " appended, seconds after the hand ends.",
    )


class HandDetailSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    table = serializers.IntegerField(help_text="The table's id.")
    table_name = serializers.CharField()
    kind = serializers.CharField(help_text="friends, practice or tournament.")
    number = serializers.IntegerField()
    game = serializers.CharField(help_text="nlhe (No-Limit Hold'em) or plo (Pot-Limit Omaha).")
    straddle_seat = serializers.IntegerField(
        allow_null=True, help_text="The seat that straddled; null without a straddle."
    )
    bomb_pot = serializers.IntegerField(
        help_text="Each player's stake when the hand was a bomb pot; 0 otherwise."
    )
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField()
    level = serializers.IntegerField(
        allow_null=True, help_text="A tournament's blind level, from 1; null outside tournaments."
    )
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()
    button = serializers.IntegerField(help_text="The button's seat.")
    seat_count = serializers.IntegerField()
    board = serializers.ListField(child=serializers.CharField(help_text=CARD_HELP))
    second_board = serializers.ListField(
        child=serializers.CharField(help_text=CARD_HELP),
        help_text="The second run-out's five cards when the hand was run twice, else empty.",
    )
    pot = serializers.IntegerField()
    viewer_seat = serializers.IntegerField(allow_null=True, help_text="Your seat in the hand.")
    players = HandPlayerViewSerializer(many=True)
    actions = HandActionSerializer(many=True)
    pots = PotSerializer(many=True)
    fairness = FairnessSerializer(
        allow_null=True, help_text="Provably fair dealing (docs/fairness.md); null before it."
    )


class StatSerializer(serializers.Serializer[Any]):
    value = serializers.FloatField(allow_null=True, help_text="Null when there was no chance.")
    numerator = serializers.FloatField()
    denominator = serializers.IntegerField()


# Each stat of a player (tables/history/stats.py RATIOS, then the tournaments' ROI and ITM),
# with what its value counts.
STATS_HELP = {
    "vpip": "Voluntarily put chips in preflop, in %.",
    "pfr": "Raised preflop, in %.",
    "three_bet": "Re-raised preflop when able, in %.",
    "fold_to_three_bet": "Folded to a preflop re-raise, in %.",
    "af": "Aggression factor: postflop bets and raises per call (a ratio).",
    "afq": "Aggression frequency: postflop bets and raises over all postflop actions, in %.",
    "cbet": "Bet the flop after raising preflop, in %.",
    "fold_to_cbet": "Folded to a flop continuation bet, in %.",
    "wtsd": "Went to showdown after seeing the flop, in %.",
    "wsd": "Won at showdown, in %.",
    "wwsf": "Won the hand after seeing the flop, in %.",
    "bb_per_100": "Big blinds won per 100 hands (numerator in big blinds).",
    "allin_ev_bb_per_100": "All-in EV big blinds won per 100 hands.",
    "roi": "Over finished tournaments (the hand filters do not narrow it): prizes less "
    "buy-ins, over buy-ins, in %; null with only freerolls.",
    "itm": "Over finished tournaments: tournaments paid over played, in %.",
}


class StatValuesSerializer(serializers.Serializer[Any]):
    """Every stat by name, each ``{value, numerator, denominator}``."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {name: StatSerializer(help_text=text) for name, text in STATS_HELP.items()}


class StatsSerializer(serializers.Serializer[Any]):
    player = serializers.CharField(help_text="The player's username.")
    hands = serializers.IntegerField(help_text="Hands counted (after the filters).")
    net = serializers.IntegerField(help_text="Chips won over those hands.")
    stats = StatValuesSerializer()

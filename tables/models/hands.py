"""Finished hands and what is counted from them (tables/history/).

A ``Hand`` is stored when it starts and completed, with one ``HandPlayer`` per
player and the members' ``PlayerTotals``, in the transaction that ends it
(tables/history/record.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from config.adapters.json_field import JSONField
from tables.models.table import Table


class Hand(models.Model):
    """One hand: stored when it starts, completed in the transaction that ends it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    button = models.PositiveSmallIntegerField()
    small_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    big_blind_seat = models.PositiveSmallIntegerField()
    small_blind = models.PositiveIntegerField()
    big_blind = models.PositiveIntegerField()
    ante = models.PositiveIntegerField(default=0)
    level = models.PositiveSmallIntegerField(default=0)
    game = models.CharField(max_length=4, default="nlhe")  # engine.games' code
    straddle_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    bomb_pot = models.PositiveIntegerField(default=0)  # everyone's stake; 0: not a bomb pot
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    board = JSONField(default=list, blank=True)
    second_board = JSONField(default=list, blank=True)  # run twice (rule 25)
    pots = JSONField(default=list, blank=True)  # pot_awarded events
    events = JSONField(default=list, blank=True)
    final_stacks = JSONField(null=True, blank=True)
    phh = models.TextField(blank=True)
    pot = models.PositiveIntegerField(default=0)  # every pot's chips together, once over
    # Provably fair dealing (engine.fairness): the deck's commitment and leaves, made
    # before the deal, and its 52 salts, which leave the server only for cards a
    # viewer saw.
    commitment = models.CharField(max_length=64, blank=True)
    deck_leaves = JSONField(default=list, blank=True)
    deck_salts = JSONField(default=list, blank=True)
    # The players' cut the deck was dealt in (engine.cut, ``Cut.as_json``); None for
    # a hand dealt before the cut: its cards were dealt in the sealed order.
    cut = JSONField(null=True, blank=True)
    # Its players' all-in EV is still their actual result, until filled in after
    # the hand's transaction (tables/history/allin_ev.py).
    allin_ev_pending = models.BooleanField(default=False)
    # Finished with a sealed deck, and not yet in the public log (tables/fairness_log/):
    # appended after the hand's transaction, never in it.
    log_pending = models.BooleanField(default=False)

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="tables_hand_unique_number"),
        ]
        indexes = [
            # The sweep's look for hands whose all-in EV task was lost: few rows.
            models.Index(
                fields=["ended_at"],
                condition=models.Q(allin_ev_pending=True),
                name="tables_hand_allin_ev_pending",
            ),
            # The log's look for finished hands still to append, in finishing order.
            models.Index(
                fields=["ended_at", "id"],
                condition=models.Q(log_pending=True),
                name="tables_hand_log_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"Hand #{self.number} at table {self.table_id}"

    @property
    def is_over(self) -> bool:
        return self.ended_at is not None


# The per-hand facts tables/history/stats.py sums, and the filters it may apply.
STATS_COLUMNS = [
    *("hand_id", "position", "net", "went_to_showdown", "vpip_chance", "vpip", "pfr"),
    *("three_bet", "could_three_bet", "faced_three_bet", "folded_to_three_bet"),
    *("postflop_aggressive", "postflop_calls", "postflop_folds", "could_cbet", "cbet"),
    *("faced_cbet", "folded_to_cbet", "saw_flop", "won_at_showdown", "won_chips"),
    *("net_bb", "allin_ev_bb"),
]


class HandPlayer(models.Model):
    """One player's part in a hand, with the facts a tracker needs (POKER_RULES stats)."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hand_players",
    )
    # The hand's start, kept here too so a member's hands list and page from one index.
    started_at = models.DateTimeField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField()
    position = models.CharField(max_length=3, blank=True)  # tables/history/facts.py
    name = models.CharField(max_length=60)
    is_bot = models.BooleanField(default=False)
    hole_cards = JSONField(default=list)
    starting_stack = models.PositiveIntegerField()
    final_stack = models.PositiveIntegerField()
    net = models.IntegerField()
    was_shown = models.BooleanField(default=False)
    is_button = models.BooleanField(default=False)
    is_small_blind = models.BooleanField(default=False)
    is_big_blind = models.BooleanField(default=False)
    vpip = models.BooleanField(default=False)
    pfr = models.BooleanField(default=False)
    three_bet = models.BooleanField(default=False)
    could_three_bet = models.BooleanField(default=False)
    saw_flop = models.BooleanField(default=False)
    went_to_showdown = models.BooleanField(default=False)
    won_at_showdown = models.BooleanField(default=False)
    won_chips = models.BooleanField(default=False)
    # The rest of the tracker facts (tables/history/facts.py says how each is decided).
    vpip_chance = models.BooleanField(default=True)  # False for the big blind in a walk
    faced_three_bet = models.BooleanField(default=False)
    folded_to_three_bet = models.BooleanField(default=False)
    postflop_aggressive = models.PositiveSmallIntegerField(default=0)  # bets and raises
    postflop_calls = models.PositiveSmallIntegerField(default=0)
    postflop_folds = models.PositiveSmallIntegerField(default=0)
    could_cbet = models.BooleanField(default=False)
    cbet = models.BooleanField(default=False)
    faced_cbet = models.BooleanField(default=False)
    folded_to_cbet = models.BooleanField(default=False)
    net_bb = models.FloatField(default=0.0)  # net in the hand's big blinds
    allin_ev = models.FloatField(default=0.0)  # expected net chips; the net unless all-in EV
    allin_ev_bb = models.FloatField(default=0.0)
    is_allin_ev = models.BooleanField(default=False)

    class Meta:
        ordering = ["hand", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="tables_handplayer_unique_seat"),
        ]
        indexes = [
            # A member's hands newest first (the list and its cursor pages), carrying
            # every column the stats count, so PostgreSQL sums a member's stats from
            # the index alone (SQLite has no INCLUDE: there it is a plain index).
            models.Index(
                fields=["user", "-started_at", "-id"],
                include=STATS_COLUMNS,
                name="tables_handplayer_user_stats",
            ),
            # A member's rows in hand order, with the same columns: another member's
            # stats count only the hands both were dealt into, a merge of the two
            # members' rows read from this index alone (tables/history/api.py, stats_for).
            models.Index(
                fields=["user", "hand"],
                include=["started_at", *STATS_COLUMNS[1:]],  # hand_id is in the key
                name="tables_handplayer_user_hand",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.hand}"


class PlayerTotals(models.Model):
    """A member's stats counters over all their hands: the sums tables/history/stats.py takes
    over ``HandPlayer`` rows, kept up to date in the transaction that ends each hand,
    so unfiltered stats read one row (tables/history/record.py adds each hand)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hand_totals"
    )
    hands = models.PositiveIntegerField(default=0)
    vpip_chances = models.PositiveIntegerField(default=0)
    vpip = models.PositiveIntegerField(default=0)
    pfr = models.PositiveIntegerField(default=0)
    three_bet = models.PositiveIntegerField(default=0)
    could_three_bet = models.PositiveIntegerField(default=0)
    folded_to_three_bet = models.PositiveIntegerField(default=0)
    faced_three_bet = models.PositiveIntegerField(default=0)
    postflop_aggressive = models.PositiveIntegerField(default=0)
    postflop_calls = models.PositiveIntegerField(default=0)
    postflop_folds = models.PositiveIntegerField(default=0)
    cbet = models.PositiveIntegerField(default=0)
    could_cbet = models.PositiveIntegerField(default=0)
    folded_to_cbet = models.PositiveIntegerField(default=0)
    faced_cbet = models.PositiveIntegerField(default=0)
    saw_flop = models.PositiveIntegerField(default=0)
    went_to_showdown = models.PositiveIntegerField(default=0)
    won_at_showdown = models.PositiveIntegerField(default=0)
    won_after_flop = models.PositiveIntegerField(default=0)
    net = models.BigIntegerField(default=0)
    net_bb = models.FloatField(default=0.0)
    allin_ev_bb = models.FloatField(default=0.0)

    def __str__(self) -> str:
        return f"Totals of {self.user} over {self.hands} hands"


class SealedDeck(models.Model):
    """The next hand's deck at a table, shuffled and sealed before the players cut it
    (tables/services/cut.py): its cards in sealed order and its salts are secret until
    dealt, so this row is read only by the deal and shown nowhere."""

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    hand_ref = models.CharField(max_length=32)  # the hand it is for (Table.cut)
    commitment = models.CharField(max_length=64)
    cards = JSONField(default=list)  # engine card numbers, sealed position order
    salts = JSONField(default=list)
    leaves = JSONField(default=list)

    def __str__(self) -> str:
        return f"Sealed deck of table {self.table_id}"

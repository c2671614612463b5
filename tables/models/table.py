"""Tables, their seats, and the history of every hand played at them.

The live hand is not stored as a pickled state: ``Table.hand_events`` holds
the current hand's event log and ``engine.replay`` rebuilds the state from it.
Every write goes through ``tables.services`` (one locked transaction each).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

# What a table may be set to; the service (tables/services/tables.py) and the
# form check against these, and nothing else defines them.
MIN_SEATS = 2
MAX_SEATS = 9  # a full ring
DEFAULT_SEATS = 6
MIN_ACTION_SECONDS = 5
MAX_ACTION_SECONDS = 120
MIN_STARTING_BIG_BLINDS = 2  # a starting stack covers at least this many big blinds
DEPARTED_NAME = "Former member"  # a seat whose account was deleted during a hand


class Table(models.Model):
    class Kind(models.TextChoices):
        FRIENDS = "friends", "Friends"
        PRACTICE = "practice", "Practice"
        TOURNAMENT = "tournament", "Tournament"

    name = models.CharField(max_length=60)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owned_tables",
    )
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.FRIENDS)
    # A tournament's table (its behaviour: tournaments/kind.py); None for other kinds.
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="tables",
    )
    seat_count = models.PositiveSmallIntegerField(default=DEFAULT_SEATS)
    small_blind = models.PositiveIntegerField(default=10)
    big_blind = models.PositiveIntegerField(default=20)
    ante = models.PositiveIntegerField(default=0)
    # The blind level in play (index from 0; a tournament's, 0 elsewhere), set when a hand starts.
    level = models.PositiveSmallIntegerField(default=0)
    level_ends_at = models.DateTimeField(null=True, blank=True)  # None: blinds never go up
    starting_stack = models.PositiveIntegerField(default=1500)
    action_seconds = models.PositiveSmallIntegerField(default=20)

    # The live hand: its event log (engine.replay rebuilds the state), the
    # sequence number every command must name, and the clock.
    hand_events = models.JSONField(default=list, blank=True)
    seq = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True)
    is_time_bank = models.BooleanField(default=False)
    hand_number = models.PositiveIntegerField(default=0)
    next_hand_at = models.DateTimeField(null=True, blank=True)
    # When something is due without anyone acting (a timeout, a bot's move, the
    # next hand): the wake task and the sweep look only at this.
    wake_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The hand on display's players by seat, named as they were when it was dealt
    # (None for a seat not dealt in): its log and winners keep them after they leave.
    hand_names = models.JSONField(default=list, blank=True)
    # Indices in ``hand_events`` of the actions the clock took (a timeout, not a choice).
    timed_out_events = models.JSONField(default=list, blank=True)
    # The deck commitment of the hand on display (engine.fairness), in every snapshot.
    commitment = models.CharField(max_length=64, blank=True)

    # Last hand's positions, for engine.next_positions (dead button).
    button = models.PositiveSmallIntegerField(null=True, blank=True)
    small_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    big_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True)

    # A friends' table's host (its owner at first): the one who runs the game
    # (tables/services/host.py). None elsewhere, or once the host's account is gone.
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hosted_tables",
    )
    # Paused by the host: no hand is dealt, and a decision's clock is held with
    # ``clock_left`` seconds on it until the host resumes.
    is_paused = models.BooleanField(default=False)
    clock_left = models.FloatField(null=True, blank=True)
    # Blinds and ante the host set for the next hand (all None: unchanged).
    next_small_blind = models.PositiveIntegerField(null=True, blank=True)
    next_big_blind = models.PositiveIntegerField(null=True, blank=True)
    next_ante = models.PositiveIntegerField(null=True, blank=True)
    # Whether the host approves each rebuy, and each sit-down, or they just happen.
    is_rebuy_approved_by_host = models.BooleanField(default=False)
    is_seating_approved_by_host = models.BooleanField(default=False)
    # Users whose chat lines the host muted at this table.
    muted_user_ids = models.JSONField(default=list, blank=True)
    # The host ended the game: at the end of the hand in play (``closes_after_hand``),
    # then everyone is cashed out and no hand is dealt again (``closed_at``).
    closes_after_hand = models.BooleanField(default=False)
    closed_at = models.DateTimeField(null=True, blank=True)
    # A practice table's player gets a fresh starting stack after any hand that
    # busts them (their choice, kept for their next practice table too).
    auto_rebuy = models.BooleanField(default=False)

    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_count__gte=MIN_SEATS, seat_count__lte=MAX_SEATS),
                name="tables_table_seat_count_2_to_9",
            ),
            models.CheckConstraint(
                condition=Q(small_blind__gte=1, big_blind__gte=F("small_blind")),
                name="tables_table_blinds_ordered",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"


class Seat(models.Model):
    """An occupied seat: a user or a bot. An empty seat has no row."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    # SET_NULL, not CASCADE: a member deleted in the middle of a hand leaves a
    # seat the hand can still finish with (played as away, gone after the hand).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    is_bot = models.BooleanField(default=False)
    bot_name = models.CharField(max_length=40, blank=True)
    # A tournament's seat: whose entry it is (kept if the member's account is deleted).
    entry = models.ForeignKey(
        "tournaments.Entry", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Chips behind between hands; during a hand the engine state has the live figure.
    stack = models.PositiveIntegerField(default=0)
    is_sitting_out = models.BooleanField(default=False)
    # Stood up during a hand: folded when their turn comes, gone after the hand.
    is_leaving = models.BooleanField(default=False)
    # Removed by the host during a hand: leaving, and not able to take it back.
    is_removed = models.BooleanField(default=False)
    # Busted and asked the host for a rebuy (at a table where the host approves them).
    wants_rebuy = models.BooleanField(default=False)
    # Presence: since when none of the player's table sockets has been open
    # (their sockets are ``PresenceLease`` rows).
    disconnected_at = models.DateTimeField(null=True, blank=True)
    # Timed out (both clocks ran out): sitting out until they come back.
    has_timed_out = models.BooleanField(default=False)
    time_bank = models.FloatField(default=30.0)
    hands_since_refill = models.PositiveSmallIntegerField(default=0)
    # The table's hand number when this player sat down: they are not in that
    # hand (it may be the finished hand still on display, played by someone else).
    joined_at_hand = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="tables_seat_unique_number"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=Q(user__isnull=False),
                name="tables_seat_one_per_user",
            ),
            # A human seat whose account was deleted keeps no user (``has_departed``).
            models.CheckConstraint(
                condition=Q(is_bot=False) | Q(user__isnull=True),
                name="tables_seat_bot_has_no_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} at seat {self.number}"

    @property
    def has_departed(self) -> bool:
        """A person's seat whose account was deleted during play."""
        return not self.is_bot and self.user_id is None

    @property
    def name(self) -> str:
        if self.is_bot:
            return self.bot_name
        return self.user.public_name if self.user else DEPARTED_NAME


class PresenceLease(models.Model):
    """One open table socket of a seated player, kept alive by its server's renewals.

    A socket that closes deletes its lease; one whose server died stops being
    renewed, and the sweep counts it gone once ``renewed_at`` is older than
    ``TABLES_PRESENCE_LEASE_SECONDS`` (tables/services/presence.py).
    """

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="leases")
    channel_name = models.CharField(max_length=200, unique=True)
    renewed_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.channel_name} at seat {self.seat_id}"


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
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    board = models.JSONField(default=list, blank=True)
    pots = models.JSONField(default=list, blank=True)  # pot_awarded events
    events = models.JSONField(default=list, blank=True)
    final_stacks = models.JSONField(null=True, blank=True)
    phh = models.TextField(blank=True)
    pot = models.PositiveIntegerField(default=0)  # every pot's chips together, once over
    # Provably fair dealing (engine.fairness): the deck's commitment and leaves, made
    # before the deal, and its 52 salts, which leave the server only for cards a
    # viewer saw.
    commitment = models.CharField(max_length=64, blank=True)
    deck_leaves = models.JSONField(default=list, blank=True)
    deck_salts = models.JSONField(default=list, blank=True)
    # Its players' all-in EV is still their actual result, until filled in after
    # the hand's transaction (tables/history/allin_ev.py).
    allin_ev_pending = models.BooleanField(default=False)

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
    hole_cards = models.JSONField(default=list)
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


class ChipMovement(models.Model):
    """Chips crossing the edge of a friends' table: bought in, rebought, cashed out,
    or cashed out earlier and brought back.

    Written in the transaction of the seat change that moves them, so the
    buy-ins, rebuys and comebacks less the cash-outs always equal the chips on
    the table. Only buy-ins and rebuys bring new chips; a comeback is a stack
    this table cashed out to the same player before.
    """

    class Kind(models.TextChoices):
        BUY_IN = "buy_in", "Buy-in"
        REBUY = "rebuy", "Rebuy"
        CASH_OUT = "cash_out", "Cash-out"
        COMEBACK = "comeback", "Came back with the stack cashed out"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chip_movements")
    # SET_NULL: a deleted member's chips stay counted (as a former member's).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="chip_movements",
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    amount = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "created_at", "id"]
        indexes = [models.Index(fields=["table", "user"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.amount} at table #{self.table_id}"


class ChatMessage(models.Model):
    """A line of a table's chat (the last few are shown to whoever opens the table)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    text = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "created_at", "id"]
        indexes = [models.Index(fields=["table", "-created_at"])]

    def __str__(self) -> str:
        return f"chat at table #{self.table_id}"


class SeatRequest(models.Model):
    """A member asking to sit at a table where the host approves each sit-down."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    number = models.PositiveSmallIntegerField()  # the seat asked for
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "user"], name="tables_seatrequest_one_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} asks for seat {self.number} at table #{self.table_id}"

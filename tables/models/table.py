"""Tables and their seats: who sits where, and the hand in play.

The live hand is not stored as a pickled state: ``Table.hand_events`` holds
the current hand's event log and ``engine.replay`` rebuilds the state from it.
Every write goes through ``tables.services`` (one locked transaction each).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from config.adapters.json_field import JSONField

# What a table may be set to; the service (tables/services/tables.py) and the
# form check against these, and nothing else defines them.
MIN_SEATS = 2
MAX_SEATS = 9  # a full ring
DEFAULT_SEATS = 6
MIN_ACTION_SECONDS = 5
MAX_ACTION_SECONDS = 120
MIN_STARTING_BIG_BLINDS = 2  # a starting stack covers at least this many big blinds
MAX_BOMB_POT_EVERY = 50  # a bomb pot every 2 to 50 hands, when the host wants them regularly
DEPARTED_NAME = "Former member"  # a seat whose account was deleted during a hand
INVITE_KEY_BYTES = 12  # 96 random bits, 16 URL-safe characters


def new_invite_key() -> str:
    """A fresh secret for a table's link (``Table.invite_key``)."""
    return secrets.token_urlsafe(INVITE_KEY_BYTES)


class Table(models.Model):
    class Kind(models.TextChoices):
        FRIENDS = "friends", "Friends"
        PRACTICE = "practice", "Practice"
        TOURNAMENT = "tournament", "Tournament"

    class Game(models.TextChoices):  # the codes are engine.games'
        NO_LIMIT_HOLDEM = "nlhe", "No-Limit Hold'em"
        POT_LIMIT_OMAHA = "plo", "Pot-Limit Omaha"

    class Pace(models.TextChoices):  # how long the bots and the next hand wait
        NORMAL = "normal", "Normal"
        FAST = "fast", "Fast"

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
    game = models.CharField(max_length=4, choices=Game.choices, default=Game.NO_LIMIT_HOLDEM)

    # A friends' table's home-game options (docs/rules.md rules 23-25), set by its host.
    # Straddles allowed: the player under the gun who ticked it posts two big blinds.
    allows_straddle = models.BooleanField(default=False)
    # Players all-in before the river are asked whether to run the board twice.
    offers_run_it_twice = models.BooleanField(default=False)
    # A bomb pot's stake (0: no bomb pots), dealt every ``bomb_pot_every`` hands
    # (0: only when the host calls one, ``bomb_pot_next``).
    bomb_pot_ante = models.PositiveIntegerField(default=0)
    bomb_pot_every = models.PositiveSmallIntegerField(default=0)
    bomb_pot_next = models.BooleanField(default=False)
    # While the players all-in choose the run-outs: their answers so far by seat
    # (True: run it twice); the question closes at ``deadline``.
    runout_answers = JSONField(default=dict, blank=True)
    # While a hand that ended in an all-in run-out is revealed step by step (rule 30):
    # how many of its run-out streets are on the felt so far; null otherwise (and
    # from the result step on). Only such a hand reads or writes it.
    runout_revealed = models.PositiveSmallIntegerField(null=True, blank=True)

    # The live hand: its event log (engine.replay rebuilds the state), the
    # sequence number every command must name, and the clock.
    hand_events = JSONField(default=list, blank=True)
    seq = models.PositiveIntegerField(default=0)
    # Counts the table's ChipMovement rows written (tables/services/ledger.py), so a
    # process may keep the ledger's totals while it is unchanged (tables/snapshot.py).
    ledger_version = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True)
    is_time_bank = models.BooleanField(default=False)
    hand_number = models.PositiveIntegerField(default=0)
    next_hand_at = models.DateTimeField(null=True, blank=True)
    # When something is due without anyone acting (a timeout, a bot's move, the
    # next hand): the wake task and the sweep look only at this.
    wake_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The hand on display's players by seat, named as they were when it was dealt
    # (None for a seat not dealt in): its log and winners keep them after they leave.
    hand_names = JSONField(default=list, blank=True)
    # Indices in ``hand_events`` of the actions the clock took (a timeout, not a choice).
    timed_out_events = JSONField(default=list, blank=True)
    # The deck commitment of the hand on display (engine.fairness), in every snapshot.
    commitment = models.CharField(max_length=64, blank=True)
    # The players' cut (tables/services/cut.py): the hand taking commitments, the next
    # hand's seal with its closed list and the values revealed, the cut of the hand on
    # display. Hashes and values only: the sealed deck itself is a SealedDeck row.
    cut = JSONField(default=dict, blank=True)

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
    muted_user_ids = JSONField(default=list, blank=True)
    # Users the host removed: they may not sit here again until the host lets them
    # back (``allow_back``; tables/services/host_word.py).
    barred_user_ids = JSONField(default=list, blank=True)
    # The host's last stack changes, for the hand log (``stack_changes`` in a
    # snapshot): each with the hand it followed; the ledger rows are the record.
    stack_changes = JSONField(default=list, blank=True)
    # The host ended the game: at the end of the hand in play (``closes_after_hand``),
    # then everyone is cashed out and no hand is dealt again (``closed_at``).
    closes_after_hand = models.BooleanField(default=False)
    closed_at = models.DateTimeField(null=True, blank=True)
    # A practice table's player gets a fresh starting stack after any hand that
    # busts them (their choice, kept for their next practice table too).
    auto_rebuy = models.BooleanField(default=False)
    # A friends' table its host lists in the lobby; unlisted (the default), it is
    # reachable by its link only (tables/selectors.py, ``tables_with_free_seats``).
    is_listed = models.BooleanField(default=False)
    # The secret in the link a friends' table's host shares (``/tables/<id>/?key=...``,
    # tables/links.py): unlisted, the table opens to its players and to whoever brings
    # this key. The host may make a new one, and the old link admits nobody new.
    invite_key = models.CharField(max_length=32, unique=True, default=new_invite_key)
    # A practice table's pace: fast bots and short pauses between hands (tables/services/
    # clock.py), chosen on the practice form and offered again for the next one.
    pace = models.CharField(max_length=8, choices=Pace.choices, default=Pace.NORMAL)

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

    @property
    def blinds_words(self) -> str:
        """The blinds as the invite page and the lobby say them: "blinds 10/20, ante 5"."""
        ante = f", ante {self.ante}" if self.ante else ""
        return f"blinds {self.small_blind}/{self.big_blind}{ante}"

    @property
    def options_in_play(self) -> list[str]:
        """The home-game options for the next hand, as the table's head names them
        (``optionsText`` in static/js/homegame.js): "Straddles", "Run it twice",
        "Bomb pot 40 every 5 hands"."""
        options = []
        if self.allows_straddle:
            options.append("Straddles")
        if self.offers_run_it_twice:
            options.append("Run it twice")
        if self.bomb_pot_ante:
            every = f" every {self.bomb_pot_every} hands" if self.bomb_pot_every else ""
            options.append(f"Bomb pot {self.bomb_pot_ante}{every}")
        return options


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
    # Straddles whenever under the gun, where the table allows straddles (rule 23).
    wants_straddle = models.BooleanField(default=False)
    # Chips bought during a hand (a tournament's rebuy or add-on): added before the next deal.
    chips_to_add = models.PositiveIntegerField(default=0)
    # Sitting out at a cash table, the big blind went past this seat (rule 29): back,
    # the player waits until the big blind is theirs; cleared when they are dealt in.
    has_missed_big_blind = models.BooleanField(default=False)

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


class PresenceHolder(models.Model):
    """A server process that holds presence leases, and when it last said it was alive.

    One row per process with seated table sockets open, named once per process
    (tables/lease_renewals.py). The process renews this one row, however many
    leases it holds: its leases are alive while ``renewed_at`` is within
    ``TABLES_PRESENCE_LEASE_SECONDS`` (tables/services/presence.py).
    """

    name = models.CharField(max_length=200, unique=True)
    renewed_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.name


class PresenceLease(models.Model):
    """One open table socket of a seated player, alive while its holder is.

    A socket that closes deletes its lease. Its holder is the server process
    with the socket open: if that process dies, the sweep drops the lease once
    the holder has not been renewed for ``TABLES_PRESENCE_LEASE_SECONDS``
    (tables/services/presence.py).
    """

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="leases")
    channel_name = models.CharField(max_length=200, unique=True)
    # PROTECT: a holder is deleted only once it holds no lease, so that no seat
    # loses its player's presence without being told (the sweep settles each seat).
    holder = models.ForeignKey(PresenceHolder, on_delete=models.PROTECT, related_name="leases")

    def __str__(self) -> str:
        return f"{self.channel_name} at seat {self.seat_id}"


class SeatRequest(models.Model):
    """A member asking to sit at a table where the host approves each sit-down."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    number = models.PositiveSmallIntegerField()  # the seat asked for
    # A player who bought in here before and comes back without a stack to bring:
    # a new buy-in, which waits for the host where the host approves rebuys.
    is_rebuy = models.BooleanField(default=False)
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

"""A tournament's entrants and what passed between them: knockouts and deals."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from config.adapters.json_field import JSONField
from tournaments.models.tournament import Tournament


class Entry(models.Model):
    """One entrant: a member who registered, or a bot of a practice SNG."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_entries",
    )
    is_bot = models.BooleanField(default=False)
    bot_name = models.CharField(max_length=40, blank=True)
    name = models.CharField(max_length=60)  # as shown when the entry was made
    buy_in = models.PositiveIntegerField(default=0)  # what was paid (refunded in full)
    # Every point this entry put in (buy-in, rebuys, add-on) and won from bounties: the
    # player's ROI counts them (selectors.tournament_stats, the club's leaderboard).
    paid = models.PositiveBigIntegerField(default=0)
    bounties_won = models.PositiveBigIntegerField(default=0)
    registered_at = models.DateTimeField(auto_now_add=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    prize = models.PositiveBigIntegerField(default=0)
    # Chips at the start of the hand they went out in (rule 19 compares these).
    chips_at_elimination = models.PositiveIntegerField(null=True, blank=True)
    eliminated_at = models.DateTimeField(null=True, blank=True)
    # The bounty on this player's head (a knockout tournament's), and who knocked them
    # out: [[entry id, chips they started that hand with], ...] from the button's left,
    # kept from the hand until the player is out (after a rebuy offer, maybe later).
    bounty = models.PositiveBigIntegerField(default=0)
    knocked_out_by = JSONField(null=True, blank=True)
    # Rebuys and add-on bought (their points are in the prize pool and the ledger).
    rebuys = models.PositiveSmallIntegerField(default=0)
    has_added_on = models.BooleanField(default=False)
    # Out of chips in the rebuy period with a rebuy left: not out yet, until this moment
    # passes or the player says no (tournaments/services/rebuys.py).
    rebuy_offer_until = models.DateTimeField(null=True, blank=True, db_index=True)
    # The hand that decided the place (went out in it, or won it): hand histories say so.
    final_hand = models.ForeignKey(
        "tables.Hand", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "place", "registered_at", "pk"]
        verbose_name_plural = "entries"
        constraints = [
            # One entry still in per member; out of it, a re-entry is another entry.
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=Q(user__isnull=False, place__isnull=True),
                name="tournaments_entry_one_live_per_user",
            ),
            models.CheckConstraint(
                condition=Q(is_bot=False) | Q(user__isnull=True),
                name="tournaments_entry_bot_has_no_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.tournament_id}"


class Knockout(models.Model):
    """A bounty taken: ``winner`` knocked ``busted`` out and was paid ``paid`` points
    (and, in a progressive knockout, ``added`` went onto their own bounty)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="knockouts")
    hand = models.ForeignKey(
        "tables.Hand", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    busted = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    winner = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="knockouts_won")
    paid = models.PositiveBigIntegerField()
    added = models.PositiveBigIntegerField(default=0)
    bounty_after = models.PositiveBigIntegerField(default=0)  # the winner's, once added
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.winner_id} knocked out {self.busted_id} for {self.paid}"


class Deal(models.Model):
    """A deal proposed at a final table of 2 to 5 (rule 28): what is left to pay,
    shared by ICM, chip chop or a split of the players' own, and their answers.

    Amounts, stacks and answers are keyed by entry id (as a string: JSON). Written
    only by ``tournaments.services.deals``, with the tournament's row locked first;
    kept once decided: the tournament's history shows it.
    """

    class Method(models.TextChoices):
        ICM = "icm", "ICM"
        CHIP_CHOP = "chip_chop", "Chip chop"
        CUSTOM = "custom", "Custom"

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for answers"
        ACCEPTED = "accepted", "Accepted"
        REFUSED = "refused", "Refused"
        EXPIRED = "expired", "Not answered in time"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="deals")
    proposer = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    method = models.CharField(max_length=10, choices=Method.choices)
    # Points off the first prize the players play on for; the winner takes them.
    kept_for_winner = models.PositiveBigIntegerField(default=0)
    amounts = JSONField(default=dict)  # {"<entry id>": points}
    stacks = JSONField(default=dict)  # {"<entry id>": chips when proposed}
    answers = JSONField(default=dict)  # {"<entry id>": true (accept) or false}
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    hand_number = models.PositiveIntegerField(default=0)  # the table's hands dealt before it
    created_at = models.DateTimeField(auto_now_add=True)
    ends_at = models.DateTimeField(db_index=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament"], condition=Q(status="open"), name="tournaments_one_open_deal"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_method_display()} deal in {self.tournament_id} ({self.status})"

    def amount_of(self, entry_id: int) -> int:
        return int(self.amounts.get(str(entry_id), 0))

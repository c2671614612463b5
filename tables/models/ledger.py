"""The chips that cross the edge of a friends' table (tables/services/ledger.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tables.models.table import Table


class ChipMovement(models.Model):
    """Chips crossing the edge of a friends' table: bought in, rebought, cashed out,
    or cashed out earlier and brought back; and the host's changes of a stack
    (``tables/services/stacks.py``).

    Written in the transaction of the seat change that moves them, so the
    buy-ins, rebuys and comebacks less the cash-outs always equal the chips on
    the table (corrections and transfers included). Only buy-ins and rebuys bring
    new chips; a comeback is a stack this table cashed out to the same player before.
    """

    class Kind(models.TextChoices):
        BUY_IN = "buy_in", "Buy-in"
        REBUY = "rebuy", "Rebuy"
        CASH_OUT = "cash_out", "Cash-out"
        COMEBACK = "comeback", "Came back with the stack cashed out"
        CORRECTION = "correction", "The host corrected the stack"
        TRANSFER = "transfer", "The host moved chips between players"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chip_movements")
    # SET_NULL: a deleted member's chips stay counted (as a former member's).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="chip_movements",
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # Chips, always positive for buy-ins, rebuys, cash-outs and comebacks; signed for
    # the host's corrections and transfers (onto the player's stack, or off it when
    # negative). A transfer is two rows that add up to zero.
    amount = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "created_at", "id"]
        indexes = [models.Index(fields=["table", "user"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.amount} at table #{self.table_id}"

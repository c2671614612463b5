"""The public log of hand seals (docs/fairness.md, "The public log"; engine/merkle.py).

Append-only: ``LogEntry`` rows and ``LogSubtree`` hashes are written once, by
``tables.fairness_log.append.log_append`` under the lock of the one ``LogHead``
row, and never changed. An entry outlives its hand: the log keeps what it
published.
"""

from __future__ import annotations

from django.db import models

from tables.models.hands import Hand


class LogHead(models.Model):
    """The log's latest signed head, one row (pk 1): every append locks it."""

    tree_size = models.PositiveBigIntegerField(default=0)
    root_hash = models.CharField(max_length=64)  # lowercase hex
    timestamp = models.DateTimeField(null=True, blank=True)  # None: nothing appended yet
    signature = models.CharField(max_length=128, blank=True)  # Ed25519, hex
    # The key it was signed with: a new SECRET_KEY is a new key (tables/fairness_log/signing.py).
    public_key = models.CharField(max_length=64, blank=True)  # raw Ed25519, hex
    # What the entries say of the players' cut, counted as they are appended (anyone
    # can count them again from the entries): hands with a cut record, those nobody
    # cut, and the committed values left out (disputed when their client was told
    # they came in time).
    hands_cut = models.PositiveBigIntegerField(default=0)
    hands_uncut = models.PositiveBigIntegerField(default=0)
    values_left_out = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"Fairness log head: {self.tree_size} entries"


class LogEntry(models.Model):
    """One hand's entry: the exact canonical JSON logged, and its leaf hash."""

    index = models.PositiveBigIntegerField(unique=True)
    hand = models.OneToOneField(
        Hand, null=True, blank=True, on_delete=models.SET_NULL, related_name="log_entry"
    )
    entry = models.TextField()  # canonical JSON (engine.fairness_log.log_entry), UTF-8
    leaf_hash = models.CharField(max_length=64)  # sha256(0x00 || entry), lowercase hex

    class Meta:
        verbose_name_plural = "log entries"

    def __str__(self) -> str:
        return f"Fairness log entry {self.index}"


class LogSubtree(models.Model):
    """The hash of a complete perfect subtree: 2**level entries from
    position * 2**level. Every hash a proof needs is built from a few of them."""

    level = models.PositiveSmallIntegerField()
    position = models.PositiveBigIntegerField()
    hash = models.CharField(max_length=64)  # lowercase hex

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["level", "position"], name="tables_logsubtree_unique")
        ]

    def __str__(self) -> str:
        return f"Fairness log subtree {self.level}/{self.position}"

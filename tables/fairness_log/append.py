"""Finished hands join the public log after their own transaction has committed.

The live path never waits on the log, nor pays for it beyond one column:
``hand_finish`` marks the hand ``log_pending`` in its own transaction, and the
tables' beat sweep (every TABLES_SWEEP_SECONDS) appends what is pending:
``log_append`` takes the lock of the one ``LogHead`` row, appends the pending
hands in finishing order, stores the perfect subtrees they complete and signs
the new head, in one short transaction. A task queued for each hand's end cost
the live path 2 ms of a publication per hand for nothing the sweep does not do
within seconds (docs/performance.md). Hands played before the log existed are
appended oldest first, a long backlog by ``append_to_log`` tasks.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from engine import merkle
from engine.fairness_log import head_message, log_entry, utc_timestamp
from tables.fairness_log.signing import public_key_hex, sign
from tables.models import Hand, LogEntry, LogHead, LogSubtree

log = logging.getLogger(__name__)

HEAD_ID = 1
# Hands appended in one transaction: the lock is held for milliseconds.
APPEND_BATCH = 500
# Batches one task appends before leaving the rest to the next (the backfill).
APPEND_BATCHES_PER_TASK = 20


def entry_of(hand: Hand) -> bytes:
    """The hand's entry: its id, its seal, and its cut when the players cut it."""
    return log_entry(hand=hand.pk, commitment=hand.commitment, cut=hand.cut)


def stored_subtrees(pieces: Iterable[merkle.Piece]) -> dict[merkle.Piece, bytes]:
    """The stored hashes of these perfect subtrees, in one query."""
    wanted = set(pieces)
    if not wanted:
        return {}
    query = Q()
    for level, position in wanted:
        query |= Q(level=level, position=position)
    rows = LogSubtree.objects.filter(query).values_list("level", "position", "hash")
    return {(level, position): bytes.fromhex(hashed) for level, position, hashed in rows}


def locked_head() -> LogHead:
    """The head row, locked for the rest of the transaction (made on first use)."""
    LogHead.objects.get_or_create(pk=HEAD_ID, defaults={"root_hash": merkle.EMPTY_ROOT.hex()})
    return LogHead.objects.select_for_update().get(pk=HEAD_ID)


def log_append(*, limit: int | None = None) -> int:
    """Append up to ``limit`` (``APPEND_BATCH``) pending hands in finishing order and
    sign the new head; how many pending hands it took. A hand marked pending again
    once in the log (by hand, say) is not appended twice: its mark is only cleared."""
    if not Hand.objects.filter(log_pending=True).exists():  # the sweep's usual answer, no lock
        return 0
    with transaction.atomic():
        head = locked_head()
        batch = list(
            Hand.objects.filter(log_pending=True)
            .order_by("ended_at", "id")
            .only("id", "commitment", "cut")[: APPEND_BATCH if limit is None else limit]
        )
        ids = [hand.pk for hand in batch]
        logged = set(LogEntry.objects.filter(hand_id__in=ids).values_list("hand_id", flat=True))
        hands = [hand for hand in batch if hand.pk not in logged]
        if hands:
            _append(head, hands)
        Hand.objects.filter(pk__in=ids).update(log_pending=False)
    return len(batch)


def _append(head: LogHead, hands: list[Hand]) -> None:
    """Write the hands' entries and the perfect subtrees they complete; sign the head."""
    size = head.tree_size
    entries = [entry_of(hand) for hand in hands]
    leaves = [merkle.leaf_hash(entry) for entry in entries]
    edge = stored_subtrees(merkle.perfect_pieces(0, size) if size else [])
    completed = merkle.new_subtrees(size, edge, leaves)
    LogEntry.objects.bulk_create(
        LogEntry(index=size + i, hand=hand, entry=entry.decode("utf-8"), leaf_hash=leaf.hex())
        for i, (hand, entry, leaf) in enumerate(zip(hands, entries, leaves, strict=True))
    )
    LogSubtree.objects.bulk_create(
        LogSubtree(level=level, position=position, hash=hashed.hex())
        for level, position, hashed in completed
    )
    known = {**edge, **{(level, position): hashed for level, position, hashed in completed}}
    new_size = size + len(hands)
    _sign_head(head, new_size, merkle.root_hash(new_size, lambda *piece: known[piece]))


def _sign_head(head: LogHead, size: int, root: bytes) -> None:
    now = timezone.now()
    head.tree_size, head.root_hash, head.timestamp = size, root.hex(), now
    message = head_message(tree_size=size, root_hash=root.hex(), timestamp=utc_timestamp(now))
    head.signature, head.public_key = sign(message), public_key_hex()
    head.save()


def log_catch_up(*, batches: int = APPEND_BATCHES_PER_TASK) -> int:
    """Append pending hands a batch at a time, up to ``batches`` batches; how many. As
    many as ``batches`` full batches means more may be waiting (a backfill)."""
    appended = 0
    for _ in range(batches):
        added = log_append()
        appended += added
        if added < APPEND_BATCH:
            break
    return appended

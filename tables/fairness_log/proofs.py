"""What the public log answers: its signed head, entries, proofs, and a hand's place.

Every hash a proof needs is built from stored perfect subtrees
(``engine.merkle.perfect_pieces``), fetched in one query: some 2 log n rows,
however long the log.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from django.utils import timezone

from engine import merkle
from engine.fairness_log import head_message, utc_timestamp
from tables.fairness_log.append import HEAD_ID, stored_subtrees
from tables.fairness_log.signing import public_key_hex, sign
from tables.models import LogEntry, LogHead

# Entries one page of GET /api/fairness-log/entries/ gives at most.
MAX_ENTRIES_PAGE = 1000


class BadRange(ValueError):
    """A range or size the log cannot answer for; ``parameter`` names the culprit."""

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(message)
        self.parameter = parameter


def head() -> dict[str, Any]:
    """The latest signed head, with the public key it was signed with (an empty log's
    is signed as it is read)."""
    row = LogHead.objects.filter(pk=HEAD_ID).first()
    if row is None or row.timestamp is None:
        size, root, stamp = 0, merkle.EMPTY_ROOT.hex(), utc_timestamp(timezone.now())
        signature = sign(head_message(tree_size=size, root_hash=root, timestamp=stamp))
        key = public_key_hex()
    else:
        size, root, stamp = row.tree_size, row.root_hash, utc_timestamp(row.timestamp)
        signature, key = row.signature, row.public_key  # as signed, whatever the key is now
    return {
        "tree_size": size,
        "root_hash": root,
        "timestamp": stamp,
        "signature": signature,
        "public_key": key,
    }


def cut_counts() -> dict[str, int]:
    """What the entries appended so far say of the players' cut (docs/fairness.md)."""
    row = LogHead.objects.filter(pk=HEAD_ID).first()
    return {
        "hands_cut": row.hands_cut if row else 0,
        "hands_uncut": row.hands_uncut if row else 0,
        "values_left_out": row.values_left_out if row else 0,
    }


def tree_size() -> int:
    size = LogHead.objects.filter(pk=HEAD_ID).values_list("tree_size", flat=True).first()
    return size or 0


def _hashes(ranges: list[merkle.LeafRange]) -> list[str]:
    pieces = [piece for start, end in ranges for piece in merkle.perfect_pieces(start, end)]
    known = stored_subtrees(pieces)
    return [
        merkle.subtree_hash(start, end, lambda *piece: known[piece]).hex() for start, end in ranges
    ]


def root_at(size: int) -> str:
    return merkle.EMPTY_ROOT.hex() if size == 0 else _hashes([(0, size)])[0]


def inclusion_proof(index: int, size: int | None = None) -> dict[str, Any]:
    """The audit path of entry ``index`` in the log of ``size`` entries (the head's
    unless given)."""
    current = tree_size()
    size = current if size is None else size
    if not 0 < size <= current:
        raise BadRange("tree_size", f"must be from 1 to the head's {current}")
    if not 0 <= index < size:
        raise BadRange("index", f"must be from 0 to {size - 1}")
    ranges = merkle.inclusion_ranges(index, size)
    leaf = LogEntry.objects.values_list("leaf_hash", flat=True).get(index=index)
    return {"index": index, "tree_size": size, "leaf_hash": leaf, "audit_path": _hashes(ranges)}


def consistency_proof(first: int, second: int | None = None) -> dict[str, Any]:
    """The proof that the log of ``first`` entries starts the log of ``second`` (the
    head's unless given)."""
    current = tree_size()
    second = current if second is None else second
    if not 0 < second <= current:
        raise BadRange("second", f"must be from 1 to the head's {current}")
    if not 0 < first <= second:
        raise BadRange("first", f"must be from 1 to second ({second})")
    proof = _hashes(merkle.consistency_ranges(first, second))
    return {"first": first, "second": second, "proof": proof}


def entries(start: int, end: int | None = None) -> dict[str, Any]:
    """Entries ``start`` to ``end`` (excluded), at most ``MAX_ENTRIES_PAGE`` of them."""
    current = tree_size()
    if current == 0 and start == 0 and not end:  # an empty log's first page
        return {"start": 0, "end": 0, "entries": []}
    if not 0 <= start < current:
        problem = f"must be from 0 to {current - 1}" if current else "the log is empty"
        raise BadRange("start", problem)
    end = min(current, start + MAX_ENTRIES_PAGE) if end is None else end
    if not start < end <= current:
        raise BadRange("end", f"must be above start and at most the head's {current}")
    end = min(end, start + MAX_ENTRIES_PAGE)
    rows = LogEntry.objects.filter(index__gte=start, index__lt=end).order_by("index")
    return {
        "start": start,
        "end": end,
        "entries": list(rows.values("index", "entry", "leaf_hash")),
    }


def export_lines() -> Iterator[str]:
    """The whole log as JSON lines: the signed head, then every entry it covers."""
    signed = head()
    yield json.dumps(signed) + "\n"
    rows = LogEntry.objects.filter(index__lt=signed["tree_size"]).order_by("index")
    for index, entry, leaf in rows.values_list("index", "entry", "leaf_hash").iterator(2000):
        yield json.dumps({"index": index, "entry": entry, "leaf_hash": leaf}) + "\n"


def hand_log(hand_id: int) -> dict[str, Any] | None:
    """A hand's place in the log with its inclusion proof at the latest head; None until
    it is appended (within seconds of its end)."""
    row = LogEntry.objects.filter(hand_id=hand_id).values("index", "entry").first()
    signed = LogHead.objects.filter(pk=HEAD_ID).first()
    if row is None or signed is None or signed.timestamp is None:
        return None
    size = signed.tree_size
    return {
        "index": row["index"],
        "entry": row["entry"],
        "tree_size": size,
        "root_hash": signed.root_hash,
        "timestamp": utc_timestamp(signed.timestamp),
        "signature": signed.signature,
        "public_key": signed.public_key,
        "inclusion_proof": _hashes(merkle.inclusion_ranges(row["index"], size)),
    }

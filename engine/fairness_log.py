"""The public log of hand seals (docs/fairness.md, "The public log"): what one entry
is, what a signed head signs, and the checks of a hand's inclusion and of two heads'
consistency, over the hex strings Felt's API gives (engine/merkle.py does the tree).

An entry is the canonical JSON of a versioned object (keys sorted, no spaces,
UTF-8); its leaf hash is ``sha256(0x00 || entry)``.

>>> entry = log_entry(hand=7, commitment="ab" * 32)
>>> entry[:14]
b'{"commitment":'
>>> entry.endswith(b'"hand":7,"v":1}')
True
>>> head_message(tree_size=1, root_hash="cd" * 32, timestamp="2026-11-29T00:30:01.000000Z")[:13]
b'{"root_hash":'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from engine.merkle import leaf_hash, verify_consistency, verify_inclusion

ENTRY_VERSION = 1
_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")


def canonical_json(value: Mapping[str, Any]) -> bytes:
    """Keys sorted, no spaces, UTF-8 (non-ASCII left as it is)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def utc_timestamp(moment: datetime) -> str:
    """ISO-8601 in UTC with microseconds and a Z: ``2026-11-29T00:30:00.000000Z``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def log_entry(*, hand: int, commitment: str, cut: Mapping[str, Any] | None = None) -> bytes:
    """One hand's entry: its id, its deck seal, and its cut when it had one. Nothing
    names its table, the table's hand number or when it was dealt: the log is public,
    and a friends' table shared by link only keeps even its activity to itself; a hand's
    id is known to those the hand's own answer is shown to (docs/fairness.md)."""
    entry: dict[str, Any] = {"v": ENTRY_VERSION, "hand": hand, "commitment": commitment}
    if cut is not None:
        entry["cut"] = dict(cut)
    return canonical_json(entry)


def head_message(*, tree_size: int, root_hash: str, timestamp: str) -> bytes:
    """The bytes a head's Ed25519 signature signs."""
    return canonical_json({"root_hash": root_hash, "timestamp": timestamp, "tree_size": tree_size})


def _digest(text: Any) -> bytes:
    if not isinstance(text, str) or not _HEX_DIGEST.fullmatch(text):
        raise ValueError(f"{text!r} is not a lowercase sha256 hex digest")
    return bytes.fromhex(text)


def _whole(value: Any, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{name} is not a whole number")
    return value


def check_inclusion(log: Mapping[str, Any], *, hand: int, commitment: str) -> list[str]:
    """What does not match in a hand's ``log`` object (the API's ``fairness.log``): its
    entry must name this hand and its commitment, and its audit path lead to the root.
    An empty list when all does."""
    try:
        entry_text = log["entry"]
        if not isinstance(entry_text, str):
            raise ValueError("entry is not a string")
        entry = json.loads(entry_text)
        index = _whole(log["index"], "index")
        size = _whole(log["tree_size"], "tree_size")
        root = _digest(log["root_hash"])
        path = [_digest(item) for item in log["inclusion_proof"]]
    except (KeyError, TypeError, ValueError) as error:
        return [f"log: not a log position with its proof ({error})"]
    problems = []
    if not isinstance(entry, dict) or entry.get("hand") != hand:
        problems.append("log: the entry is not this hand's")
    elif entry.get("commitment") != commitment:
        problems.append("log: the entry's commitment is not the hand's")
    if not verify_inclusion(leaf_hash(entry_text.encode("utf-8")), index, size, path, root):
        problems.append(f"log: the inclusion proof does not lead to the root of {size} entries")
    return problems


def check_consistency(
    older: Mapping[str, Any], newer: Mapping[str, Any], proof: Sequence[Any]
) -> list[str]:
    """What is wrong with ``proof`` (hex digests) as the consistency proof from the head
    ``older`` to the head ``newer`` (each with ``tree_size`` and ``root_hash``)."""
    try:
        first, second = (
            _whole(older["tree_size"], "tree_size"),
            _whole(newer["tree_size"], "tree_size"),
        )
        roots = _digest(older["root_hash"]), _digest(newer["root_hash"])
        path = [_digest(item) for item in proof]
    except (KeyError, TypeError, ValueError) as error:
        return [f"heads: not two heads and a proof ({error})"]
    if first == 0 and not path:  # an empty log is the start of every log
        return []
    if not verify_consistency(first, second, *roots, path):
        return [f"the log of {second} entries does not extend the log of {first}"]
    return []

"""The public log's entries and the checks anyone runs (engine.fairness_log,
``python -m engine verify`` with a hand's ``log``, ``python -m engine consistency``)."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path
from random import Random
from typing import Any

import pytest

from engine.__main__ import main
from engine.fairness_log import (
    canonical_json,
    check_consistency,
    check_inclusion,
    head_message,
    log_entry,
    utc_timestamp,
)
from engine.merkle import PerfectSubtrees, consistency_proof, inclusion_proof, leaf_hash, root_hash
from tests.engine.test_fairness import SALT, api_hand, showdown_with_a_fold


def entries(count: int, commitment: str = "0" * 64) -> list[bytes]:
    return [log_entry(hand=i + 1, commitment=commitment) for i in range(count)]


def logged(entries_: list[bytes], index: int, size: int) -> dict[str, Any]:
    """A hand's ``fairness.log`` as the API gives it."""
    tree = PerfectSubtrees([leaf_hash(e) for e in entries_])
    return {
        "index": index,
        "tree_size": size,
        "root_hash": root_hash(size, tree).hex(),
        "entry": entries_[index].decode(),
        "inclusion_proof": [h.hex() for h in inclusion_proof(index, size, tree)],
    }


def test_an_entry_is_canonical_json_naming_no_table_and_no_time() -> None:
    entry = log_entry(hand=12, commitment="ab" * 32)
    assert entry == b'{"commitment":"' + b"ab" * 32 + b'","hand":12,"v":1}'
    assert b"table" not in entry and b"number" not in entry, "a table's activity stays its own"


def test_an_entry_carries_the_cut_only_when_there_is_one() -> None:
    cut = {"values": {"3": "é"}, "commitments": {}, "left_out": [], "permutation": "c" * 64}
    entry = json.loads(log_entry(hand=1, commitment="a", cut=cut))
    assert entry["cut"] == cut
    assert "é".encode() in log_entry(hand=1, commitment="a", cut=cut)


def test_a_head_signs_its_size_root_and_time_as_canonical_json() -> None:
    message = head_message(
        tree_size=5, root_hash="cd" * 32, timestamp="2026-11-29T01:02:03.000000Z"
    )
    assert message == (
        b'{"root_hash":"'
        + b"cd" * 32
        + b'","timestamp":"2026-11-29T01:02:03.000000Z","tree_size":5}'
    )


def test_a_logged_hand_checks_out_and_a_changed_one_does_not() -> None:
    log = logged(entries(9), 6, 9)
    assert check_inclusion(log, hand=7, commitment="0" * 64) == []
    assert check_inclusion(log, hand=8, commitment="0" * 64) == [
        "log: the entry is not this hand's"
    ]
    assert check_inclusion(log, hand=7, commitment="1" * 64) == [
        "log: the entry's commitment is not the hand's"
    ]
    moved = {**log, "index": 5}
    assert check_inclusion(moved, hand=7, commitment="0" * 64) == [
        "log: the inclusion proof does not lead to the root of 9 entries"
    ]


@pytest.mark.parametrize(
    "change",
    [
        {"index": -1},
        {"index": True},
        {"tree_size": "9"},
        {"root_hash": "AB" * 32},
        {"inclusion_proof": ["xyz"]},
        {"entry": 3},
        {"entry": "not json"},
    ],
)
def test_a_log_object_that_is_not_one_is_named(change: dict[str, Any]) -> None:
    log = {**logged(entries(3), 0, 3), **change}
    (problem,) = check_inclusion(log, hand=1, commitment="0" * 64)
    assert problem.startswith("log: not a log position with its proof")


def heads_and_proof(old: list[bytes], new: list[bytes]) -> tuple[dict[str, Any], ...]:
    old_tree, new_tree = (
        PerfectSubtrees([leaf_hash(e) for e in old]),
        PerfectSubtrees([leaf_hash(e) for e in new]),
    )
    older = {"tree_size": len(old), "root_hash": root_hash(len(old), old_tree).hex()}
    newer = {"tree_size": len(new), "root_hash": root_hash(len(new), new_tree).hex()}
    proof = [h.hex() for h in consistency_proof(len(old), len(new), new_tree)] if old else []
    return older, newer, {"first": len(old), "second": len(new), "proof": proof}


def test_two_heads_of_a_growing_log_are_consistent() -> None:
    log = entries(11)
    older, newer, answer = heads_and_proof(log[:4], log)
    assert check_consistency(older, newer, answer["proof"]) == []
    assert check_consistency({**older, "tree_size": 0}, newer, []) == []


def test_a_rewritten_past_entry_breaks_consistency() -> None:
    log = entries(11)
    older, _, _ = heads_and_proof(log[:4], log[:4])
    rewritten = [
        *log[:2],
        log_entry(hand=3, commitment="1" * 64),
        *log[3:],
    ]
    _, newer, answer = heads_and_proof(rewritten[:4], rewritten)
    assert check_consistency(older, newer, answer["proof"]) == [
        "the log of 11 entries does not extend the log of 4"
    ]
    assert check_consistency(older, {"tree_size": 11}, [])[0].startswith("heads: not two heads")


def write(path: Path, value: Any) -> str:
    path.write_text(json.dumps(value))
    return str(path)


def test_the_command_line_checks_a_hands_place_in_the_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = api_hand(showdown_with_a_fold(Random(5)), 2, [SALT] * 52)
    hand["id"] = 3
    hand["fairness"]["log"] = logged(entries(5, hand["fairness"]["commitment"]), 2, 5)
    assert main(["verify", write(tmp_path / "hand.json", hand)]) == 0
    assert capsys.readouterr().out == "verified\n"

    hand["fairness"]["log"]["root_hash"] = "f" * 64
    bad = write(tmp_path / "moved.json", hand)
    assert main(["verify", bad]) == 1
    assert capsys.readouterr().out == (
        f"{bad}: log: the inclusion proof does not lead to the root of 5 entries\n"
    )


def test_the_command_line_checks_two_heads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = entries(6)
    older, newer, answer = heads_and_proof(log[:3], log)
    files = [
        write(tmp_path / f"{name}.json", value)
        for name, value in (("old", older), ("new", newer), ("proof", answer))
    ]
    assert main(["consistency", *files]) == 0
    assert capsys.readouterr().out == "consistent\n"

    wrong_sizes = write(tmp_path / "other.json", {**answer, "first": 2})
    assert main(["consistency", files[0], files[1], wrong_sizes]) == 1
    assert capsys.readouterr().out == (
        f"{files[1]}: the proof is from 2 to 6 entries, not the heads'\n"
    )
    assert main(["consistency", files[0], files[1], write(tmp_path / "x.json", [])]) == 1
    assert "not two heads and a consistency proof" in capsys.readouterr().err


def test_the_worked_example_in_the_docs_holds() -> None:
    """docs/fairness.md, "The public log": its entry, leaves, roots and proofs."""
    text = (Path(__file__).parents[2] / "docs" / "fairness.md").read_text(encoding="utf-8")
    section = text[text.index("## The public log") :]
    example = json.loads(re.search(r"^    (\{\"commitment\".*\})$", section, re.M).group(1))
    digests = list(dict.fromkeys(re.findall(r"\b[0-9a-f]{64}\b", section)))
    log = [
        log_entry(hand=100 + i, commitment=hashlib.sha256(str(i).encode()).hexdigest())
        for i in range(3)
    ]
    assert canonical_json(example) == log[0]
    leaves = [leaf_hash(entry) for entry in log]
    tree = PerfectSubtrees(leaves)
    expected = [
        *(leaf.hex() for leaf in leaves),
        root_hash(2, tree).hex(),
        root_hash(3, tree).hex(),
    ]
    assert digests[: len(expected) + 1] == [example["commitment"], *expected]
    assert [h.hex() for h in inclusion_proof(2, 3, tree)] == [root_hash(2, tree).hex()]
    assert [h.hex() for h in consistency_proof(2, 3, tree)] == [leaves[2].hex()]
    assert '`["5d452adc…7c53"]`' in section and '`["f500f24f…bf4e"]`' in section


def test_a_heads_time_is_written_in_utc_with_microseconds_and_a_z() -> None:
    an_hour_east = timezone(timedelta(hours=1))
    moment = datetime(2026, 11, 29, 1, 2, 3, 456789, tzinfo=an_hour_east)
    assert utc_timestamp(moment) == "2026-11-29T00:02:03.456789Z"

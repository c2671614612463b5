"""The public log of hand seals (docs/fairness.md, "The public log"): finished hands are
appended after their own transaction, each hand's answer proves its place, the signed
head checks with the published key, a rewritten past entry is caught, and an outside
checker written from the docs alone agrees."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Sequence
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from django.apps import apps
from rest_framework.test import APIClient

from engine import merkle
from engine.fairness_log import check_consistency, check_inclusion, head_message
from tables import tasks
from tables.fairness_log import append as fairness_log_append
from tables.fairness_log import proofs
from tables.fairness_log.append import log_append
from tables.models import Hand, LogEntry, LogHead, LogSubtree, Table
from tests.support import wait_for
from tests.tables.cutting import Player
from tests.tables.helpers import act, deal, fresh, friends_table

CHECKER = Path(__file__).parent / "log_checker.py"


def fold_hands(table: Any, count: int, cutters: Sequence[Player] = ()) -> list[Hand]:
    """``count`` hands at ``table``, each folded by the first to act; ``cutters`` take
    part in the players' cut between hands, as their pages would."""
    for _ in range(count):
        for player in cutters:
            player.take_part()
        deal(table)
        act(table, "fold")
    return list(Hand.objects.filter(table=table).order_by("number"))


def public(path: str, **query: Any) -> Any:
    return APIClient().get(path, query)


def signature_holds(head: dict[str, Any]) -> bool:
    key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(head["public_key"]))
    message = head_message(
        tree_size=head["tree_size"], root_hash=head["root_hash"], timestamp=head["timestamp"]
    )
    try:
        key.verify(bytes.fromhex(head["signature"]), message)
    except InvalidSignature:
        return False
    return True


def hand_answer(user: Any, hand: Hand) -> dict[str, Any]:
    api = APIClient()
    api.force_authenticate(user)
    response = api.get(f"/api/hands/{hand.pk}/")
    assert response.status_code == 200, response.content
    return dict(response.json())


@pytest.mark.django_db(transaction=True)
def test_hands_played_at_a_table_are_logged_by_the_sweep_with_a_proof(
    celery_worker: None, alice: Any, bob: Any
) -> None:
    table = friends_table(alice, bob)
    for number in (1, 2, 3):  # the worker deals each hand once the last one is over
        wait_for(lambda n=number: fresh(table).hand_number == n)
        act(table, "fold")
    wait_for(lambda: Hand.objects.filter(table=table, ended_at__isnull=False).count() >= 3)
    assert not LogEntry.objects.exists(), "no task per hand: the sweep appends them"

    tasks.sweep()  # as the beat runs it, every TABLES_SWEEP_SECONDS

    hands = Hand.objects.filter(table=table, ended_at__isnull=False).order_by("ended_at")
    logged = list(LogEntry.objects.order_by("index").values_list("hand_id", flat=True))
    assert logged[:3] == [hand.pk for hand in hands[:3]], "appended in finishing order"
    body = hand_answer(alice, hands[0])
    log = body["fairness"]["log"]
    assert log is not None and log["index"] == 0
    assert check_inclusion(log, hand=body["id"], commitment=body["fairness"]["commitment"]) == []
    assert signature_holds(log), "the head the proof leads to, as signed"
    assert signature_holds(public("/api/fairness-log/head/").json())


@pytest.mark.django_db
def test_a_hand_is_not_logged_in_its_own_transaction_and_shows_null_until_it_is(
    alice: Any, bob: Any
) -> None:
    (hand,) = fold_hands(friends_table(alice, bob), 1)
    assert hand.log_pending and not LogEntry.objects.exists()
    assert hand_answer(alice, hand)["fairness"]["log"] is None

    assert log_append() == 1
    assert log_append() == 0, "appended once"
    Hand.objects.filter(pk=hand.pk).update(log_pending=True)  # marked again, say by hand
    assert log_append() == 1 and LogEntry.objects.count() == 1, "still appended once"
    assert not Hand.objects.get(pk=hand.pk).log_pending
    log = hand_answer(alice, hand)["fairness"]["log"]
    assert log["index"] == 0 and log["tree_size"] == 1
    entry = {"v": 1, "hand": hand.pk, "commitment": hand.commitment, "cut": hand.cut}
    assert hand.cut["uncut"] and json.loads(log["entry"]) == entry, "nobody's value: uncut"


@pytest.mark.django_db
def test_the_sweep_appends_hands_whose_task_was_lost(alice: Any, bob: Any) -> None:
    hands = fold_hands(friends_table(alice, bob), 2)  # no task ran: none is logged yet
    assert not LogEntry.objects.exists()

    tasks.sweep()

    assert list(LogEntry.objects.order_by("index").values_list("hand_id", flat=True)) == [
        hand.pk for hand in hands
    ]
    assert not Hand.objects.filter(log_pending=True).exists()


@pytest.mark.django_db
def test_a_sweep_appends_one_bounded_batch_oldest_first(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    hands = fold_hands(friends_table(alice, bob), 5)
    monkeypatch.setattr(fairness_log_append, "APPEND_BATCH", 2)
    logged = []
    for _ in range(3):
        tasks.sweep()
        logged.append(LogEntry.objects.count())
    assert logged == [2, 4, 5]
    order = list(LogEntry.objects.order_by("index").values_list("hand_id", flat=True))
    assert order == [hand.pk for hand in hands]


@pytest.mark.django_db
def test_hands_played_before_the_log_join_it_oldest_first(alice: Any, bob: Any) -> None:
    hands = fold_hands(friends_table(alice, bob), 3)
    Hand.objects.update(log_pending=False)
    migration = import_module("tables.migrations.0027_fairness_log")

    migration.hands_already_played_wait_for_the_log(apps, None)
    assert log_append() == 3
    indexes = dict(LogEntry.objects.values_list("hand_id", "index"))
    assert [indexes[hand.pk] for hand in hands] == [0, 1, 2]


@pytest.mark.django_db
def test_the_head_is_signed_with_the_published_key_and_a_changed_root_fails(
    alice: Any, bob: Any, settings: Any
) -> None:
    assert public("/api/fairness-log/head/").json()["tree_size"] == 0
    fold_hands(friends_table(alice, bob), 2)
    log_append()
    head = public("/api/fairness-log/head/").json()
    assert head["tree_size"] == 2 and signature_holds(head)
    assert not signature_holds({**head, "root_hash": "0" * 64})
    assert not signature_holds({**head, "tree_size": 1})

    settings.SECRET_KEY = "a new secret key"
    assert public("/api/fairness-log/head/").json() == head, "kept as it was signed"
    fold_hands(Table.objects.get(), 1)
    log_append()
    renewed = public("/api/fairness-log/head/").json()
    assert renewed["public_key"] != head["public_key"] and signature_holds(renewed)


def rewrite_entry(index: int) -> None:
    """What a dishonest operator would do: change a past entry and rebuild the tree."""
    row = LogEntry.objects.get(index=index)
    entry = json.loads(row.entry)
    entry["commitment"] = "f" * 64
    row.entry = json.dumps(entry, sort_keys=True, separators=(",", ":"))
    row.leaf_hash = merkle.leaf_hash(row.entry.encode()).hex()
    row.save()
    leaves = [
        bytes.fromhex(h)
        for h in LogEntry.objects.order_by("index").values_list("leaf_hash", flat=True)
    ]
    LogSubtree.objects.all().delete()
    LogSubtree.objects.bulk_create(
        LogSubtree(level=level, position=position, hash=hashed.hex())
        for level, position, hashed in merkle.new_subtrees(0, {}, leaves)
    )
    head = LogHead.objects.get()
    head.root_hash = merkle.root_of(leaves).hex()
    head.save()


@pytest.mark.django_db
@pytest.mark.parametrize("is_rewritten", [False, True])
def test_a_changed_past_entry_fails_the_consistency_check_with_a_kept_head(
    alice: Any, bob: Any, is_rewritten: bool
) -> None:
    table = friends_table(alice, bob)
    fold_hands(table, 3)
    log_append()
    kept = public("/api/fairness-log/head/").json()
    if is_rewritten:
        rewrite_entry(1)
    fold_hands(table, 2)
    log_append()
    newer = public("/api/fairness-log/head/").json()
    proof = public("/api/fairness-log/proof/consistency/", first=3, second=5).json()

    problems = check_consistency(kept, newer, proof["proof"])

    assert problems == (
        ["the log of 5 entries does not extend the log of 3"] if is_rewritten else []
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "query", "parameter"),
    [
        ("entries/", {"start": "x"}, "start"),
        ("entries/", {"start": "5"}, "start"),
        ("entries/", {"start": "1", "end": "1"}, "end"),
        ("entries/", {"start": "0", "end": "9"}, "end"),
        ("entries/", {"start": "-1"}, "start"),
        ("proof/inclusion/", {}, "index"),
        ("proof/inclusion/", {"index": "3"}, "index"),
        ("proof/inclusion/", {"index": "0", "tree_size": "4"}, "tree_size"),
        ("proof/inclusion/", {"index": "0", "tree_size": "0"}, "tree_size"),
        ("proof/inclusion/", {"index": "1e3"}, "index"),
        ("proof/consistency/", {"first": "0"}, "first"),
        ("proof/consistency/", {"first": "3", "second": "2"}, "first"),
        ("proof/consistency/", {"first": "1", "second": "9"}, "second"),
        ("proof/consistency/", {"second": "2"}, "first"),
    ],
)
def test_a_bad_range_is_a_400_naming_its_parameter(
    alice: Any, bob: Any, path: str, query: dict[str, str], parameter: str
) -> None:
    fold_hands(friends_table(alice, bob), 3)
    log_append()
    response = public(f"/api/fairness-log/{path}", **query)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_log_range" and body["parameters"] == [parameter]


@pytest.mark.django_db
def test_entries_come_a_bounded_page_at_a_time(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    fold_hands(friends_table(alice, bob), 3)
    log_append()
    page = public("/api/fairness-log/entries/", start=1).json()
    assert page["start"] == 1 and page["end"] == 3
    assert [row["index"] for row in page["entries"]] == [1, 2]
    assert all(
        merkle.leaf_hash(row["entry"].encode()).hex() == row["leaf_hash"] for row in page["entries"]
    )
    monkeypatch.setattr(proofs, "MAX_ENTRIES_PAGE", 2)
    cut_short = public("/api/fairness-log/entries/", start=0, end=3).json()
    assert cut_short["end"] == 2 and len(cut_short["entries"]) == 2, (
        "the answer says where to go on"
    )


def test_the_outside_checker_uses_nothing_but_the_standard_library() -> None:
    tree = ast.parse(CHECKER.read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert imported == {"hashlib", "json", "sys"}


@pytest.mark.django_db
def test_an_outside_checker_verifies_a_hundred_hands_and_the_logs_growth(
    alice: Any, bob: Any, tmp_path: Path
) -> None:
    table = friends_table(alice, bob)
    cutters = [Player(alice, table), Player(bob, table)]
    fold_hands(table, 40, cutters)
    log_append()
    old_head = public("/api/fairness-log/head/").json()
    hands = fold_hands(table, 60, cutters)
    log_append()
    answers = [hand_answer((alice, bob)[n % 2], hand) for n, hand in enumerate(hands)]
    cut_by = [[c["value"] for c in a["fairness"]["cut"]["contributions"]] for a in answers]
    assert cut_by[0] == [] and all(len(values) == 2 and all(values) for values in cut_by[1:]), (
        "the first hand is sealed before anyone commits; the players cut every other"
    )
    export = APIClient().get("/api/fairness-log/export")
    assert export["Content-Type"] == "text/plain; charset=utf-8"
    files = {
        "export.jsonl": b"".join(export.streaming_content).decode(),
        "hands.json": json.dumps(answers),
        "old_head.json": json.dumps(old_head),
        "consistency.json": json.dumps(
            public("/api/fairness-log/proof/consistency/", first=40).json()
        ),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)

    def check() -> subprocess.CompletedProcess[str]:
        arguments = [str(tmp_path / name) for name in files]
        return subprocess.run(
            [sys.executable, "-I", str(CHECKER), *arguments], capture_output=True, text=True
        )

    result = check()
    assert (result.stdout, result.returncode) == ("ok: 100 hands, 100 entries\n", 0)

    answers[7]["fairness"]["log"]["index"] += 1
    (tmp_path / "hands.json").write_text(json.dumps(answers))
    result = check()
    assert result.returncode == 1
    assert result.stdout == f"hand {answers[7]['id']}: not included in the log it names\n"

    answers[7]["fairness"]["log"]["index"] -= 1
    stacked = answers[9]["fairness"]
    stacked["cut"]["contributions"][0]["value"] = "ab" * 32  # a value the player never sent
    stacked["revealed"][0]["position"] ^= 1  # a card from another place in the deck
    (tmp_path / "hands.json").write_text(json.dumps(answers))
    result = check()
    assert result.returncode == 1
    name = f"hand {answers[9]['id']}"
    assert result.stdout.splitlines()[:2] == [
        f"{name}: a value does not open its commitment",
        f"{name}: the cut's seed or permutation is not the seal's and values'",
    ], result.stdout

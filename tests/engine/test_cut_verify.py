"""Checking a cut hand: engine.fairness.verify with a ``cut`` object, ``python -m engine
verify``, a dealer who stacks the deck after the cut, and an outside checker written
from docs/fairness.md alone."""

from __future__ import annotations

import hashlib
import json
from itertools import count
from pathlib import Path
from random import Random
from typing import Any

import pytest

from engine.__main__ import main
from engine.cards import DECK, card
from engine.cut import contribution_commitment, cut_deck, make_cut, verify_cut
from engine.deal import new_hand
from engine.fairness import revealed_positions, seal_deck
from tests.engine.cut_hands import CutHand, api_hand, cut_hand
from tests.engine.test_cut import (
    ALICE,
    ALICE_COMMITS,
    BOB,
    BOB_COMMITS,
    CAROL_COMMITS,
    EXAMPLE_DIGEST,
    EXAMPLE_HAND,
    EXAMPLE_PERMUTATION,
    EXAMPLE_SALTS,
    EXAMPLE_SEAL,
    EXAMPLE_SEED,
)
from tests.engine.test_fairness import check


def test_every_viewer_of_a_cut_hand_verifies() -> None:
    for seed in range(120):
        hand = cut_hand(Random(seed))
        for viewer in (*hand.state.players, None):
            assert check(api_hand(hand, viewer)) == [], (seed, viewer)


def test_a_viewer_gets_the_salts_of_the_sealed_positions_of_the_cards_they_saw_only() -> None:
    for seed in range(30):
        hand = cut_hand(Random(seed))
        for viewer in (*hand.state.players, None):
            seen = revealed_positions(hand.state, viewer)
            given = api_hand(hand, viewer)["fairness"]["revealed"]
            assert [entry["position"] for entry in given] == seen
            sealed = {hand.cut.permutation[position] for position in seen}
            assert {entry["salt"] for entry in given} == {hand.seal.salts[s] for s in sealed}


def test_a_cut_hand_read_without_its_cut_does_not_verify() -> None:
    hand = api_hand(cut_hand(Random(4)), None)
    del hand["fairness"]["cut"]  # the positions revealed are dealt ones, not sealed ones
    assert any("does not hash to the leaf" in problem for problem in check(hand))


def test_a_cut_whose_record_was_altered_is_reported() -> None:
    hand = api_hand(make_cut_hand_with_two_values(), 0)
    record = hand["fairness"]["cut"]
    alice = next(c for c in record["contributions"] if c["commitment"] == ALICE_COMMITS)
    alice["value"] = BOB  # Alice's commitment with Bob's value
    record["seed"], record["permutation_digest"], record["uncut"] = "00", "00", True
    problems = check(hand)
    assert problems[:4] == [
        f"cut: the value {BOB} does not open its commitment {ALICE_COMMITS}",
        f"cut: the seal and the values make the seed {problems[1].rsplit(' ', 1)[1]}",
        f"cut: the permutation's digest is {problems[2].rsplit(' ', 1)[1]}",
        "cut: 'uncut' should be false",
    ]


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        (None, "cut: expected an object with 'hand' and a list of 'contributions'"),
        ({"hand": "1:1"}, "cut: expected an object with 'hand' and a list of 'contributions'"),
        ({"hand": 7, "contributions": []}, "cut: a hand is named by printable text, not 7"),
        ({"hand": "1:1", "contributions": [3]}, "cut: a contribution is an object, not 3"),
        (
            {"hand": "1:1", "contributions": [{"commitment": "ab", "value": None}]},
            "cut: a cut commitment must be 64 lowercase hex digits (32 bytes), not 'ab'",
        ),
        (
            {"hand": "1:1", "contributions": [{"commitment": ALICE_COMMITS, "value": 1}]},
            "cut: a cut value must be 64 lowercase hex digits (32 bytes), not 1",
        ),
    ],
)
def test_a_cut_object_that_cannot_be_read_is_the_only_problem_reported(
    record: object, problem: str
) -> None:
    hand = api_hand(make_cut_hand_with_two_values(), 0)
    hand["fairness"]["cut"] = record
    assert check(hand) == [problem]


def test_a_cut_of_a_seal_that_is_not_a_digest_is_reported() -> None:
    assert verify_cut(make_cut("1:1", EXAMPLE_SEAL, []).as_json(), "seal") == (
        None,
        ["cut: the deck commitment must be 64 lowercase hex digits (32 bytes), not 'seal'"],
    )


def test_a_player_whose_value_was_left_out_sees_the_hand_disputed() -> None:
    hand = api_hand(make_cut_hand_with_two_values(carol_in_time=False), 0)
    carol = "33" * 32
    assert check(hand, own_value=ALICE) == []
    assert check(hand, own_value=carol) == [
        f"cut: your value {carol} was left out of the cut: disputed"
    ]


def make_cut_hand_with_two_values(carol_in_time: bool = False) -> CutHand:
    """A heads-up hand dealt from the worked example's deck, cut by Alice and Bob."""
    seal = seal_deck(DECK, EXAMPLE_SALTS)
    carol = "33" * 32 if carol_in_time else None
    contributions = [(ALICE_COMMITS, ALICE), (BOB_COMMITS, BOB), (CAROL_COMMITS, carol)]
    cut = make_cut(EXAMPLE_HAND, seal.commitment, contributions)
    state = new_hand([200, 200], 0, 1, 2, deck=cut_deck(DECK, cut.permutation))
    return CutHand(state, seal, cut, (ALICE, BOB))


# --- A dealer who stacks the deck once the cut is known --------------------------


def stack_for(permutation: tuple[int, ...]) -> list[int]:
    """The worked example's sealed deck with the four aces moved to where
    ``permutation`` deals them from: seat 0's hole cards and the first two of the flop
    (heads-up, button on seat 0: seat 1 is dealt first)."""
    deck = list(DECK)
    for ace, dealt in zip(map(card, ["As", "Ah", "Ad", "Ac"]), [1, 3, 4, 5], strict=True):
        here, there = deck.index(ace), permutation[dealt]
        deck[here], deck[there] = deck[there], deck[here]
    return deck


def deal_stacked(hand: CutHand, deck: list[int], salts: list[str], seal: str) -> dict[str, Any]:
    """Seat 0's API answer for a hand dealt from ``deck`` (sealed with ``salts``) in the
    order of the cut of ``seal``, the commitment the dealer chooses to show."""
    cut = make_cut(hand.cut.hand_ref, seal, hand.cut.contributions)
    state = new_hand([200, 200], 0, 1, 2, deck=cut_deck(deck, cut.permutation))
    answer = api_hand(CutHand(state, seal_deck(deck, salts), cut, hand.values), 0)
    answer["fairness"]["commitment"] = seal
    return answer


def seat_0_holds(answer: dict[str, Any]) -> list[str]:
    return next(p["hole_cards"] for p in answer["players"] if p["seat"] == 0)


def test_a_deck_restacked_under_the_published_seal_does_not_open_it() -> None:
    hand = make_cut_hand_with_two_values()
    deck = stack_for(hand.cut.permutation)  # the cut is known: aces to seat 0
    answer = deal_stacked(hand, deck, EXAMPLE_SALTS, hand.seal.commitment)
    assert set(seat_0_holds(answer)) == {"As", "Ah"}, "the dealer did deal the aces"
    assert check(answer) == ["commitment: the leaves do not hash to it"]
    assert not outsider_verifies(answer, hand.seal.commitment)


def test_a_deck_resealed_after_the_cut_is_caught_by_the_seal_shown_before_it() -> None:
    hand = make_cut_hand_with_two_values()
    deck = stack_for(hand.cut.permutation)
    rng = Random(9)
    while True:  # grind salts until the new seal's own cut deals seat 0 an ace
        salts = [f"{rng.getrandbits(128):032x}" for _ in range(52)]
        resealed = seal_deck(deck, salts).commitment
        answer = deal_stacked(hand, deck, salts, resealed)
        if {"As", "Ah", "Ad", "Ac"} & set(seat_0_holds(answer)):
            break
    assert check(answer) == [], "consistent in itself: only the seal shown before tells"
    assert check(answer, published_commitment=hand.seal.commitment) == [
        f"commitment: not the seal shown before the deal, {hand.seal.commitment}"
    ]
    assert outsider_verifies(answer, resealed)
    assert not outsider_verifies(answer, hand.seal.commitment)


# --- The command line -------------------------------------------------------------


def run(tmp_path: Path, hand: dict[str, Any], *options: str) -> int:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand))
    return main(["verify", str(path), *options])


def test_the_command_line_says_how_a_hand_was_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = api_hand(make_cut_hand_with_two_values(), 1)
    assert run(tmp_path, hand, "--seal", EXAMPLE_SEAL, "--value", BOB) == 0
    assert capsys.readouterr().out == "verified (cut by 2 value(s), 1 left out)\n"
    uncut = next(hand for hand in map(cut_hand, map(Random, count())) if hand.cut.is_uncut)
    assert run(tmp_path, api_hand(uncut, None)) == 0
    assert capsys.readouterr().out == "verified (uncut: no player's value went into the cut)\n"


def test_the_command_line_fails_a_hand_against_the_seal_or_value_you_saw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = api_hand(make_cut_hand_with_two_values(), 1)
    path = tmp_path / "hand.json"
    assert run(tmp_path, hand, "--seal", "ab" * 32, "--value", "33" * 32) == 1
    assert capsys.readouterr().out == (
        f"{path}: commitment: not the seal shown before the deal, {'ab' * 32}\n"
        f"{path}: cut: your value {'33' * 32} was left out of the cut: disputed\n"
    )


# --- An outside checker, written from docs/fairness.md alone (hashlib, no Felt) -----


def outsider_verifies(hand: dict[str, Any], seal_shown: str) -> bool:
    def sha(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()

    fairness, cut = hand["fairness"], hand["fairness"]["cut"]
    leaves, seal = fairness["leaves"], fairness["commitment"]
    ok = seal == seal_shown and sha("".join(leaves)) == seal
    used = sorted(c["value"] for c in cut["contributions"] if c["value"] is not None)
    for c in cut["contributions"]:
        if c["value"] is not None:
            ok &= sha(f"felt-cut-value:{cut['hand']}:{c['value']}") == c["commitment"]
    seed = hashlib.sha256(("felt-cut-seed:" + seal + "".join(":" + v for v in used)).encode())
    blocks = (hashlib.sha256(seed.digest() + k.to_bytes(8, "big")).digest() for k in count())
    stream = (b for block in blocks for b in block)
    perm = list(range(52))
    for i in range(51, 0, -1):
        b = next(stream)
        while b >= 256 - 256 % (i + 1):
            b = next(stream)
        perm[i], perm[b % (i + 1)] = perm[b % (i + 1)], perm[i]
    ok &= cut["seed"] == seed.hexdigest() and cut["uncut"] == (not used)
    ok &= cut["permutation_digest"] == sha("felt-cut-permutation:" + ",".join(map(str, perm)))
    given = {e["position"]: e["card"] for e in fairness["revealed"]}
    for e in fairness["revealed"]:
        ok &= sha(f"{perm[e['position']]}:{e['card']}:{e['salt']}") == leaves[perm[e["position"]]]
    seats = sorted(p["seat"] for p in hand["players"])
    order = [s for s in seats if s > hand["button"]] + [s for s in seats if s <= hand["button"]]
    rounds, shown = (4 if hand.get("game") == "plo" else 2), {}
    for k, c in enumerate(hand["board"]):
        shown[rounds * len(order) + k] = c
    for p in hand["players"]:
        for r, c in enumerate(p["hole_cards"] or []):
            shown[order.index(p["seat"]) + r * len(order)] = c
    return ok and given == shown


def test_the_outside_checker_verifies_the_worked_example() -> None:
    hand = make_cut_hand_with_two_values()
    assert hand.cut.seed.hex() == EXAMPLE_SEED and hand.cut.permutation == EXAMPLE_PERMUTATION
    answer = api_hand(hand, 0)
    assert answer["fairness"]["cut"]["permutation_digest"] == EXAMPLE_DIGEST
    assert outsider_verifies(answer, EXAMPLE_SEAL)
    answer["fairness"]["revealed"][0]["card"] = "2c"
    assert not outsider_verifies(answer, EXAMPLE_SEAL)


def test_the_outside_checker_verifies_a_hundred_hands_the_engine_cut_and_sealed() -> None:
    for seed in range(100):
        hand = cut_hand(Random(1000 + seed))
        for viewer in (hand.state.players[0], None):
            assert outsider_verifies(api_hand(hand, viewer), hand.seal.commitment), seed


def test_a_contribution_commitment_is_the_documented_hash() -> None:
    text = f"felt-cut-value:{EXAMPLE_HAND}:{ALICE}"
    assert contribution_commitment(EXAMPLE_HAND, ALICE) == hashlib.sha256(text.encode()).hexdigest()

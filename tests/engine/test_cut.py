"""The players' cut (engine.cut): commitments, the seed, the permutation and its digest."""

from __future__ import annotations

import hashlib
from collections import Counter
from itertools import permutations
from pathlib import Path
from random import Random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import DECK, card_str
from engine.cut import (
    MalformedCut,
    check_contribution,
    contribution_commitment,
    cut_deck,
    cut_permutation,
    cut_seed,
    make_cut,
    new_value,
    permutation_digest,
    sealed_positions,
)
from engine.fairness import seal_deck
from tests.engine.strategies import EXAMPLES

# The worked example of docs/fairness.md ("The cut"): keep the two in step.
EXAMPLE_HAND = "7:42"
EXAMPLE_SALTS = [f"{i:032x}" for i in range(52)]
EXAMPLE_SEAL = "2bceb3a4d2cb1432d1eed3ba66882ad18571d9892cca6f8441dd91809fb6fc5c"
ALICE, BOB, CAROL = "11" * 32, "22" * 32, "33" * 32
ALICE_COMMITS = "738975dab59fa2d6b04d5e5adf7e99fdc16ef58b770f410865f366cdde13298d"
BOB_COMMITS = "cb998afd38923a885a9889b04704e46f3df7fd266855aa4eb03d778d844d86bd"
CAROL_COMMITS = "401b7b2b97de0bf2f6331b2245281edc883c4ada760811635161d4d258836abb"
EXAMPLE_SEED = "deacbd8247c8d4731d9bcffbf878b907f620547826af7a7eb61c51237b5d0333"
EXAMPLE_PERMUTATION = (
    (4, 20, 45, 24, 7, 9, 10, 22, 48, 14, 23, 8, 27, 13, 33, 50, 37, 30, 12, 31, 36, 35, 0, 19)
    + (34, 29, 5, 32, 6, 43, 41, 18, 3, 2, 25, 15, 46, 11, 39, 40, 42, 47, 21, 51, 28, 17)
    + (49, 44, 1, 26, 16, 38)
)
EXAMPLE_DIGEST = "0daee77615b627217b68d2cf9f80e1de9a7ba3f34a92465cf64fd7cc4e147ae3"
EXAMPLE_DEALT = "3c 7c Kd 8c 3s 4d 4h 7h Ac 5h 7s"

values = st.binary(min_size=32, max_size=32).map(bytes.hex)
seals = st.binary(min_size=32, max_size=32).map(bytes.hex)


def test_the_worked_example_gives_the_published_answer() -> None:
    seal = seal_deck(DECK, EXAMPLE_SALTS)
    assert seal.commitment == EXAMPLE_SEAL
    commitments = [contribution_commitment(EXAMPLE_HAND, v) for v in (ALICE, BOB, CAROL)]
    assert commitments == [ALICE_COMMITS, BOB_COMMITS, CAROL_COMMITS]
    cut = make_cut(
        EXAMPLE_HAND,
        seal.commitment,
        [(ALICE_COMMITS, ALICE), (BOB_COMMITS, BOB), (CAROL_COMMITS, None)],  # Carol was late
    )
    assert cut.seed.hex() == EXAMPLE_SEED
    assert cut.permutation == EXAMPLE_PERMUTATION
    assert permutation_digest(cut.permutation) == EXAMPLE_DIGEST
    dealt = cut_deck(DECK, cut.permutation)
    assert " ".join(card_str(card) for card in dealt[:11]) == EXAMPLE_DEALT
    assert cut.left_out == (CAROL_COMMITS,) and not cut.is_uncut
    assert cut.as_json()["contributions"][0] == {"commitment": CAROL_COMMITS, "value": None}


def test_the_seed_and_its_stream_follow_the_published_recipe() -> None:
    text = f"felt-cut-seed:{EXAMPLE_SEAL}:{ALICE}:{BOB}"
    assert cut_seed(EXAMPLE_SEAL, [BOB, ALICE]).hex() == hashlib.sha256(text.encode()).hexdigest()
    by_commitment = {BOB_COMMITS: BOB, ALICE_COMMITS: ALICE}
    assert cut_seed(EXAMPLE_SEAL, by_commitment) == cut_seed(EXAMPLE_SEAL, [ALICE, BOB])
    block = hashlib.sha256(bytes.fromhex(EXAMPLE_SEED) + bytes(8)).digest()
    assert block[0] < 256 - 256 % 52, "kept: below 208"
    assert EXAMPLE_PERMUTATION[51] == block[0] % 52, "the first draw fills the last position"


def test_the_cut_is_the_same_every_time_for_the_same_seal_and_values() -> None:
    seed = cut_seed(EXAMPLE_SEAL, [ALICE])
    assert cut_permutation(seed) == cut_permutation(seed)
    uncut = make_cut("1:1", EXAMPLE_SEAL, [])
    assert uncut.permutation == make_cut("1:1", EXAMPLE_SEAL, []).permutation


def test_a_hand_no_one_cut_is_marked_uncut_and_still_dealt_from_the_seal() -> None:
    cut = make_cut("3:9", EXAMPLE_SEAL, [(CAROL_COMMITS, None)])
    assert cut.is_uncut and cut.values == () and cut.as_json()["uncut"] is True
    assert cut.permutation == cut_permutation(cut_seed(EXAMPLE_SEAL, []))
    assert cut.permutation != cut_permutation(cut_seed("00" * 32, []))


@EXAMPLES
@given(st.binary(min_size=1, max_size=40), st.integers(1, 256))
def test_a_cut_is_a_permutation_of_every_position(seed: bytes, size: int) -> None:
    assert sorted(cut_permutation(seed, size)) == list(range(size))


@EXAMPLES
@given(seals, st.lists(values, max_size=5), values)
def test_every_value_changes_the_cut(seal: str, others: list[str], value: str) -> None:
    with_it = cut_permutation(cut_seed(seal, [*others, value]))
    assert with_it != cut_permutation(cut_seed(seal, others))
    changed = f"{int(value, 16) ^ 1:064x}"
    assert with_it != cut_permutation(cut_seed(seal, [*others, changed]))


@EXAMPLES
@given(seals, st.lists(values, max_size=6), st.randoms())
def test_the_order_values_arrive_in_does_not_matter(
    seal: str, given_values: list[str], rng: Random
) -> None:
    shuffled = list(given_values)
    rng.shuffle(shuffled)
    assert cut_seed(seal, shuffled) == cut_seed(seal, given_values)
    pairs = [(contribution_commitment("5:5", v), v) for v in given_values]
    record = make_cut("5:5", seal, pairs).as_json()
    assert make_cut("5:5", seal, pairs[::-1]).as_json() == record, "the record too"


def test_every_cut_of_four_is_about_equally_likely() -> None:
    """Chi-square over 4,800 seeds: 200 expected for each of the 24 orders of 4."""
    counts = Counter(cut_permutation(i.to_bytes(4, "big"), 4) for i in range(4800))
    assert set(counts) == set(permutations(range(4)))
    chi_square = sum((seen - 200) ** 2 / 200 for seen in counts.values())
    assert chi_square < 49.7, counts  # 23 degrees of freedom, p = 0.001


def test_every_card_is_as_likely_to_be_dealt_first() -> None:
    """The 52-card cut: 5,200 seeds, 100 expected for each card as the first one dealt."""
    counts = Counter(cut_permutation(i.to_bytes(4, "big"))[0] for i in range(5200))
    chi_square = sum((counts[p] - 100) ** 2 / 100 for p in range(52))
    assert chi_square < 87.0, counts  # 51 degrees of freedom, p = 0.001


def test_a_value_that_does_not_open_its_commitment_is_refused() -> None:
    assert check_contribution(EXAMPLE_HAND, ALICE_COMMITS, ALICE)
    assert not check_contribution(EXAMPLE_HAND, ALICE_COMMITS, BOB)
    assert not check_contribution("7:43", ALICE_COMMITS, ALICE), "bound to its hand"
    with pytest.raises(MalformedCut, match=f"{BOB} does not open the commitment"):
        make_cut(EXAMPLE_HAND, EXAMPLE_SEAL, [(ALICE_COMMITS, BOB)])


@pytest.mark.parametrize(
    ("hand", "commitment", "value", "message"),
    [
        ("7:42", ALICE_COMMITS, "11" * 31, "a cut value must be 64 lowercase hex digits"),
        ("7:42", ALICE_COMMITS, "AA" * 32, "a cut value must be 64 lowercase hex digits"),
        ("7:42", "zz" * 32, ALICE, "a cut commitment must be 64 lowercase hex digits"),
        ("", ALICE_COMMITS, ALICE, "a hand is named by printable text, not ''"),
        ("7\n42", ALICE_COMMITS, ALICE, "a hand is named by printable text"),
    ],
)
def test_malformed_input_is_refused_saying_what_is_wrong(
    hand: str, commitment: str, value: str, message: str
) -> None:
    with pytest.raises(MalformedCut, match=message):
        check_contribution(hand, commitment, value)
    with pytest.raises(ValueError, match=message):  # a MalformedCut is a ValueError
        make_cut(hand, EXAMPLE_SEAL, [(commitment, value)])


def test_a_seal_size_or_deck_the_cut_cannot_use_is_refused() -> None:
    with pytest.raises(MalformedCut, match="the deck commitment must be 64"):
        cut_seed("not a seal", [])
    with pytest.raises(MalformedCut, match="1 to 256 positions, not 257"):
        cut_permutation(b"seed", 257)
    with pytest.raises(MalformedCut, match="a cut of 52 cannot cut 51 cards"):
        cut_deck(DECK[:51], EXAMPLE_PERMUTATION)


def test_fresh_values_are_32_random_bytes() -> None:
    one, other = new_value(), new_value()
    assert len(bytes.fromhex(one)) == 32 and one == one.lower() and one != other


def test_dealt_positions_map_to_the_sealed_positions_they_are_taken_from() -> None:
    assert sealed_positions(EXAMPLE_PERMUTATION, [0, 1, 51]) == (4, 20, 38)
    dealt = cut_deck(DECK, EXAMPLE_PERMUTATION)
    assert all(dealt[i] == DECK[EXAMPLE_PERMUTATION[i]] for i in range(52))


def test_the_digest_follows_the_published_recipe() -> None:
    text = "felt-cut-permutation:" + ",".join(map(str, EXAMPLE_PERMUTATION))
    assert hashlib.sha256(text.encode()).hexdigest() == EXAMPLE_DIGEST
    assert permutation_digest(EXAMPLE_PERMUTATION[::-1]) != EXAMPLE_DIGEST


def test_the_script_in_the_docs_makes_the_engines_permutation() -> None:
    text = (Path(__file__).parents[2] / "docs" / "fairness.md").read_text(encoding="utf-8")
    section = text.split("The seed and the permutation in Python")[1]
    script = section.split("```python\n")[1].split("```")[0]
    namespace: dict[str, Any] = {}
    exec(script, namespace)  # the page's own code, as an outsider would run it
    seed = namespace["seed"](EXAMPLE_SEAL, [BOB, ALICE])
    assert seed.hex() == EXAMPLE_SEED
    assert tuple(namespace["permutation"](seed)) == EXAMPLE_PERMUTATION
    for i in range(50):
        other = hashlib.sha256(bytes([i])).digest()
        assert tuple(namespace["permutation"](other, 4 + i)) == cut_permutation(other, 4 + i)

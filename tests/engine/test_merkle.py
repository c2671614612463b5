"""RFC 6962 Merkle trees (engine.merkle): every proof the tree makes verifies, and no
changed leaf, root, size or proof does; checked against the RFC's recursive
definitions written out plainly below."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.merkle import (
    EMPTY_ROOT,
    PerfectSubtrees,
    consistency_proof,
    consistency_ranges,
    inclusion_proof,
    inclusion_ranges,
    leaf_hash,
    new_subtrees,
    node_hash,
    perfect_pieces,
    root_hash,
    root_of,
    verify_consistency,
    verify_inclusion,
)

entries = st.lists(st.binary(max_size=8), min_size=1, max_size=40)
# Distinct entries: a proof over equal leaves may honestly fit two sizes (the signed
# head is what fixes the size).
distinct_entries = st.lists(st.binary(max_size=8), min_size=1, max_size=40, unique=True)


def mth(leaves: list[bytes]) -> bytes:
    """RFC 6962's MTH, straight from its definition."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaves[0]
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return hashlib.sha256(b"\x01" + mth(leaves[:k]) + mth(leaves[k:])).digest()


def path(m: int, leaves: list[bytes]) -> list[bytes]:
    """RFC 6962's PATH(m, D[n])."""
    if len(leaves) == 1:
        return []
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    if m < k:
        return [*path(m, leaves[:k]), mth(leaves[k:])]
    return [*path(m - k, leaves[k:]), mth(leaves[:k])]


def subproof(m: int, leaves: list[bytes], whole: bool) -> list[bytes]:
    """RFC 6962's SUBPROOF(m, D[n], b)."""
    if m == len(leaves):
        return [] if whole else [mth(leaves)]
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    if m <= k:
        return [*subproof(m, leaves[:k], whole), mth(leaves[k:])]
    return [*subproof(m - k, leaves[k:], False), mth(leaves[:k])]


def hashes(data: list[bytes]) -> list[bytes]:
    return [leaf_hash(item) for item in data]


def test_leaf_and_node_hashes_carry_their_prefixes() -> None:
    assert leaf_hash(b"") == hashlib.sha256(b"\x00").digest()
    assert node_hash(b"a", b"b") == hashlib.sha256(b"\x01ab").digest()


def test_the_empty_tree_hashes_to_sha256_of_nothing() -> None:
    assert root_of([]) == EMPTY_ROOT == hashlib.sha256(b"").digest()
    assert root_hash(0, PerfectSubtrees([])) == EMPTY_ROOT


@given(entries)
def test_the_root_is_rfc_6962s_tree_hash(data: list[bytes]) -> None:
    leaves = hashes(data)
    assert root_of(leaves) == mth(leaves)


@given(entries)
def test_every_leaf_verifies_against_every_tree_that_includes_it(data: list[bytes]) -> None:
    leaves = hashes(data)
    tree = PerfectSubtrees(leaves)
    for size in range(1, len(leaves) + 1):
        root = root_hash(size, tree)
        for index in range(size):
            proof = inclusion_proof(index, size, tree)
            assert proof == path(index, leaves[:size])
            assert verify_inclusion(leaves[index], index, size, proof, root)


@given(entries)
def test_every_pair_of_sizes_is_proved_consistent(data: list[bytes]) -> None:
    leaves = hashes(data)
    tree = PerfectSubtrees(leaves)
    for second in range(1, len(leaves) + 1):
        for first in range(1, second + 1):
            proof = consistency_proof(first, second, tree)
            assert proof == subproof(first, leaves[:second], True)
            roots = root_hash(first, tree), root_hash(second, tree)
            assert verify_consistency(first, second, *roots, proof)


@given(entries.filter(lambda d: len(d) >= 2), st.data())
def test_changing_any_past_leaf_breaks_consistency(data: list[bytes], draw: st.DataObject) -> None:
    leaves = hashes(data)
    first = draw.draw(st.integers(1, len(leaves) - 1))
    changed_index = draw.draw(st.integers(0, first - 1))
    old_root = root_of(leaves[:first])
    rewritten = list(leaves)
    rewritten[changed_index] = leaf_hash(data[changed_index] + b"!")
    tree = PerfectSubtrees(rewritten)
    second = len(rewritten)
    proof = consistency_proof(first, second, tree)
    assert not verify_consistency(first, second, old_root, root_hash(second, tree), proof)


@given(distinct_entries, st.data())
def test_a_changed_proof_leaf_root_or_size_does_not_verify(
    data: list[bytes], draw: st.DataObject
) -> None:
    leaves = hashes(data)
    size = len(leaves)
    index = draw.draw(st.integers(0, size - 1))
    tree = PerfectSubtrees(leaves)
    root, proof = root_of(leaves), inclusion_proof(index, size, tree)
    other = leaf_hash(b"not an entry")
    assert not verify_inclusion(other, index, size, proof, root)
    assert not verify_inclusion(leaves[index], index, size, proof, other)
    assert not verify_inclusion(leaves[index], index, size, [*proof, other], root)
    if proof:
        position = draw.draw(st.integers(0, len(proof) - 1))
        tampered = [*proof[:position], other, *proof[position + 1 :]]
        assert not verify_inclusion(leaves[index], index, size, tampered, root)
        assert not verify_inclusion(leaves[index], index, size, proof[:-1], root)


def test_an_index_outside_the_tree_has_no_proof() -> None:
    leaf = leaf_hash(b"x")
    assert not verify_inclusion(leaf, 1, 1, [], leaf)
    assert not verify_inclusion(leaf, -1, 1, [], leaf)
    with pytest.raises(ValueError, match="no leaf 3 in a tree of 3 leaves"):
        inclusion_ranges(3, 3)


def test_consistency_needs_a_first_size_from_one_to_the_second() -> None:
    root = root_of(hashes([b"a", b"b", b"c"]))
    assert not verify_consistency(0, 3, EMPTY_ROOT, root, [])
    assert not verify_consistency(4, 3, root, root, [])
    with pytest.raises(ValueError, match="no consistency proof from 0 to 3 leaves"):
        consistency_ranges(0, 3)


def test_equal_sizes_are_consistent_only_with_equal_roots_and_no_proof() -> None:
    leaves = hashes([b"a", b"b", b"c"])
    root = root_of(leaves)
    assert consistency_proof(3, 3, PerfectSubtrees(leaves)) == []
    assert verify_consistency(3, 3, root, root, [])
    assert not verify_consistency(3, 3, root, leaves[0], [])
    assert not verify_consistency(3, 3, root, root, [root])


def test_a_short_or_long_consistency_proof_fails() -> None:
    leaves = hashes([bytes([i]) for i in range(7)])
    tree = PerfectSubtrees(leaves)
    proof = consistency_proof(3, 7, tree)
    roots = root_hash(3, tree), root_hash(7, tree)
    assert not verify_consistency(3, 7, *roots, [])
    assert not verify_consistency(3, 7, *roots, proof[:-1])
    assert not verify_consistency(3, 7, *roots, [*proof, proof[0]])


def test_a_growing_tree_stores_only_completed_perfect_subtrees() -> None:
    leaves = hashes([bytes([i]) for i in range(5)])
    tree = PerfectSubtrees(leaves[:3])
    edge = {piece: tree(*piece) for piece in perfect_pieces(0, 3)}
    added = new_subtrees(3, edge, leaves[3:])
    assert [(level, position) for level, position, _ in added] == [(0, 3), (1, 1), (2, 0), (0, 4)]
    assert dict(((lv, p), h) for lv, p, h in added)[2, 0] == root_of(leaves[:4])

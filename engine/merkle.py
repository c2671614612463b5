"""Merkle trees as Certificate Transparency builds them (RFC 6962 section 2.1): the
tree hash, audit paths (inclusion proofs), consistency proofs, and their verifiers
(the algorithms of RFC 9162 sections 2.1.3.2 and 2.1.4.2).

- A leaf's hash is ``sha256(0x00 || entry bytes)``, an inner node's
  ``sha256(0x01 || left || right)``; the two prefixes keep a leaf from passing
  for a node.
- The tree hash of ``n > 1`` leaves splits them at ``k``, the largest power of
  two below ``n``: ``node(MTH(D[0:k]), MTH(D[k:n]))``. One leaf's is its leaf
  hash; the empty tree's is ``sha256(b"")``.

A store need not keep every leaf to answer: it keeps each *perfect subtree*
(``2**level`` leaves starting at ``position * 2**level``) once complete, and
every hash a proof needs is built from ``2 log n`` of them at most. Proofs are
therefore made in two steps: ``inclusion_ranges`` / ``consistency_ranges`` say
which leaf ranges' hashes a proof is made of, ``perfect_pieces`` which perfect
subtrees those hashes are built from, and ``subtree_hash`` builds each from a
lookup of them.

>>> leaves = [leaf_hash(bytes([i])) for i in range(7)]
>>> tree = PerfectSubtrees(leaves)
>>> root = root_of(leaves)
>>> proof = inclusion_proof(5, 7, tree)
>>> verify_inclusion(leaves[5], 5, 7, proof, root)
True
>>> old_root = root_of(leaves[:3])
>>> verify_consistency(3, 7, old_root, root, consistency_proof(3, 7, tree))
True
>>> perfect_pieces(0, 7)
[(2, 0), (1, 2), (0, 6)]
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping, Sequence

LEAF_PREFIX = b"\x00"
NODE_PREFIX = b"\x01"
EMPTY_ROOT = hashlib.sha256(b"").digest()

# (level, position) -> the hash of the perfect subtree of 2**level leaves there.
PerfectLookup = Callable[[int, int], bytes]
Piece = tuple[int, int]  # (level, position)
LeafRange = tuple[int, int]  # [start, end) in leaf indices


def leaf_hash(entry: bytes) -> bytes:
    return hashlib.sha256(LEAF_PREFIX + entry).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def split_point(size: int) -> int:
    """The largest power of two strictly below ``size`` (at least 2)."""
    return 1 << ((size - 1).bit_length() - 1)


def _is_perfect(start: int, end: int) -> bool:
    size = end - start
    return size & (size - 1) == 0 and start % size == 0


def _pieces(start: int, end: int) -> Iterator[Piece]:
    """The perfect subtrees ``subtree_hash(start, end)`` is built from, left to right."""
    if _is_perfect(start, end):
        size = end - start
        level = size.bit_length() - 1
        yield level, start >> level
        return
    middle = start + split_point(end - start)
    yield from _pieces(start, middle)
    yield from _pieces(middle, end)


def perfect_pieces(start: int, end: int) -> list[Piece]:
    """Which perfect subtrees (level, position) the hash of leaves [start, end) needs."""
    return list(_pieces(start, end))


def subtree_hash(start: int, end: int, perfect: PerfectLookup) -> bytes:
    """The tree hash of leaves [start, end) (``end > start``), from perfect subtrees."""
    if _is_perfect(start, end):
        level = (end - start).bit_length() - 1
        return perfect(level, start >> level)
    middle = start + split_point(end - start)
    return node_hash(subtree_hash(start, middle, perfect), subtree_hash(middle, end, perfect))


def inclusion_ranges(index: int, size: int) -> list[LeafRange]:
    """The leaf ranges whose hashes make the audit path of leaf ``index`` in a tree of
    ``size`` leaves, bottom up (RFC 6962 section 2.1.1's PATH)."""
    _check_index(index, size)
    ranges: list[LeafRange] = []
    start, end = 0, size
    while end - start > 1:
        middle = start + split_point(end - start)
        if index < middle:
            ranges.append((middle, end))
            end = middle
        else:
            ranges.append((start, middle))
            start = middle
    return ranges[::-1]


def consistency_ranges(first: int, second: int) -> list[LeafRange]:
    """The leaf ranges whose hashes prove the tree of ``first`` leaves is a prefix of
    the tree of ``second`` (RFC 6962 section 2.1.2's PROOF, 0 < first <= second)."""
    if not 0 < first <= second:
        raise ValueError(f"no consistency proof from {first} to {second} leaves")
    ranges: list[LeafRange] = []
    start, end, is_whole_old_tree = 0, second, True
    while first != end - start:
        middle = start + split_point(end - start)
        if first <= middle - start:
            ranges.append((middle, end))
            end = middle
        else:
            ranges.append((start, middle))
            first -= middle - start
            start, is_whole_old_tree = middle, False
    if not is_whole_old_tree:
        ranges.append((start, end))
    return ranges[::-1]


def inclusion_proof(index: int, size: int, perfect: PerfectLookup) -> list[bytes]:
    return [subtree_hash(start, end, perfect) for start, end in inclusion_ranges(index, size)]


def consistency_proof(first: int, second: int, perfect: PerfectLookup) -> list[bytes]:
    return [subtree_hash(start, end, perfect) for start, end in consistency_ranges(first, second)]


def root_hash(size: int, perfect: PerfectLookup) -> bytes:
    """The tree hash of the first ``size`` leaves."""
    return EMPTY_ROOT if size == 0 else subtree_hash(0, size, perfect)


def new_subtrees(
    size: int, right_edge: Mapping[Piece, bytes], leaves: Sequence[bytes]
) -> list[tuple[int, int, bytes]]:
    """The perfect subtrees (level, position, hash) that appending ``leaves`` (leaf
    hashes) to a tree of ``size`` completes, the leaves themselves included.

    ``right_edge`` holds the hashes of ``perfect_pieces(0, size)``: all a tree needs
    to grow.
    """
    stack = [(level, position, right_edge[level, position]) for level, position in _edge(size)]
    completed: list[tuple[int, int, bytes]] = []
    for offset, hashed in enumerate(leaves):
        stack.append((0, size + offset, hashed))
        completed.append(stack[-1])
        while len(stack) > 1 and stack[-1][0] == stack[-2][0]:
            right, left = stack.pop(), stack.pop()
            stack.append((left[0] + 1, left[1] >> 1, node_hash(left[2], right[2])))
            completed.append(stack[-1])
    return completed


def _edge(size: int) -> list[Piece]:
    return perfect_pieces(0, size) if size else []


class PerfectSubtrees:
    """Every perfect subtree of a list of leaf hashes, held in memory (for a checker, or
    a test): ``tree(level, position)``."""

    def __init__(self, leaves: Sequence[bytes]) -> None:
        self.hashes: dict[Piece, bytes] = {}
        for level, position, hashed in new_subtrees(0, {}, leaves):
            self.hashes[level, position] = hashed

    def __call__(self, level: int, position: int) -> bytes:
        return self.hashes[level, position]


def root_of(leaves: Sequence[bytes]) -> bytes:
    """The tree hash of these leaf hashes."""
    return root_hash(len(leaves), PerfectSubtrees(leaves))


def verify_inclusion(
    leaf: bytes, index: int, size: int, proof: Sequence[bytes], root: bytes
) -> bool:
    """Whether ``proof`` shows the leaf hash ``leaf`` at ``index`` of the tree of ``size``
    leaves whose hash is ``root`` (RFC 9162 section 2.1.3.2)."""
    if not 0 <= index < size:
        return False
    fn, sn, hashed = index, size - 1, leaf
    for sibling in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            hashed = node_hash(sibling, hashed)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            hashed = node_hash(hashed, sibling)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and hashed == root


def verify_consistency(
    first: int, second: int, first_root: bytes, second_root: bytes, proof: Sequence[bytes]
) -> bool:
    """Whether ``proof`` shows the tree of ``first`` leaves (hash ``first_root``) is the
    start of the tree of ``second`` (hash ``second_root``), RFC 9162 section 2.1.4.2."""
    if not 0 < first <= second:
        return False
    if first == second:
        return not proof and first_root == second_root
    path = list(proof)
    if first & (first - 1) == 0:  # the old tree is a perfect subtree: its hash starts the path
        path.insert(0, first_root)
    if not path:
        return False
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    first_hash = second_hash = path[0]
    for sibling in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            first_hash = node_hash(sibling, first_hash)
            second_hash = node_hash(sibling, second_hash)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            second_hash = node_hash(second_hash, sibling)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and first_hash == first_root and second_hash == second_root


def _check_index(index: int, size: int) -> None:
    if not 0 <= index < size:
        raise ValueError(f"no leaf {index} in a tree of {size} leaves")

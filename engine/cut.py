"""The players' cut: the sealed deck (engine.fairness) is dealt in an order no one chose.

The server shuffles and seals its deck before the cut exists; every seated human then
adds a random value, committed to first and revealed once the seal is out. The order
the cards are dealt in is a permutation of the sealed deck derived from the seal and
every revealed value, so the server cannot place a card and no player can steer one.
docs/fairness.md ("The cut") gives the protocol and the threat model; the recipe, for
anyone writing a verifier (all text UTF-8, all hex lowercase):

- A contribution is 32 random bytes, written as 64 hex digits. Its commitment is
  ``sha256("felt-cut-value:<hand>:<value>")`` in hex, where ``<hand>`` names the hand
  (e.g. ``"<table id>:<hand number>"``): a commitment for one hand is worth nothing
  in another.
- The seed is the raw 32-byte digest ``sha256("felt-cut-seed:<deck commitment>")``
  followed, inside the hashed text, by ``":<value>"`` for each value used, the
  values sorted as strings (so the order they arrived in does not matter). With
  no value the seed comes from the seal alone and the hand is *uncut*.
- The stream is ``sha256(seed + counter)`` for counter 0, 1, 2, ... as 8 bytes
  big-endian, the 32-byte digests one after the other, read one byte at a time.
- The permutation starts as ``[0, 1, ..., 51]``; for ``i`` from 51 down to 1 draw
  ``j`` uniformly in ``0..i`` and swap entries ``i`` and ``j`` (Fisher-Yates).
  A draw among ``n = i + 1`` reads the next byte ``b``; a byte at or above
  ``256 - 256 % n`` is thrown away and the next one read (no modulo bias);
  else ``j = b % n``.
- ``permutation[i]`` is the sealed position that dealt position ``i`` (0 is the first
  card dealt) is taken from. Its digest, for the public log, is
  ``sha256("felt-cut-permutation:" + ",".join(str(p) for p in permutation))``.

>>> value = "11" * 32
>>> commitment = contribution_commitment("7:42", value)
>>> check_contribution("7:42", commitment, value), check_contribution("7:43", commitment, value)
(True, False)
>>> seal = "00" * 32
>>> cut_seed(seal, ["bb" * 32, "aa" * 32]) == cut_seed(seal, ["aa" * 32, "bb" * 32])
True
>>> permutation = cut_permutation(cut_seed(seal, [value]))
>>> sorted(permutation) == list(range(52))
True
>>> cut_deck(list(range(100, 152)), permutation)[0] == 100 + permutation[0]
True
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

VALUE_BYTES = 32
MAX_SIZE = 256  # one stream byte per draw serves up to 256 choices
_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")


class MalformedCut(ValueError):
    """A value, commitment, seal or hand name that the cut cannot use, with why."""


def new_value() -> str:
    """A fresh contribution: 32 bytes from ``secrets``, as 64 lowercase hex digits."""
    return secrets.token_hex(VALUE_BYTES)


def _hex_digest(what: str, text: object) -> str:
    """``text`` if it is 64 lowercase hex digits (32 bytes), else a MalformedCut naming it."""
    if not isinstance(text, str) or not _HEX_DIGEST.fullmatch(text):
        raise MalformedCut(f"{what} must be 64 lowercase hex digits (32 bytes), not {text!r}")
    return text


def _hand_name(hand_ref: object) -> str:
    """``hand_ref`` if it can name a hand (printable text), else a MalformedCut."""
    if not isinstance(hand_ref, str) or not hand_ref or not hand_ref.isprintable():
        raise MalformedCut(f"a hand is named by printable text, not {hand_ref!r}")
    return hand_ref


def contribution_commitment(hand_ref: str, value_hex: str) -> str:
    """A player's commitment to ``value_hex`` for the hand named ``hand_ref``."""
    hand, value = _hand_name(hand_ref), _hex_digest("a cut value", value_hex)
    return hashlib.sha256(f"felt-cut-value:{hand}:{value}".encode()).hexdigest()


def check_contribution(hand_ref: str, commitment: str, value_hex: str) -> bool:
    """Does ``value_hex`` open ``commitment`` for this hand? The caller refuses it if not;
    malformed input raises MalformedCut."""
    expected = _hex_digest("a cut commitment", commitment)
    return contribution_commitment(hand_ref, value_hex) == expected


def cut_seed(deck_commitment: str, values: Iterable[str] | Mapping[str, str]) -> bytes:
    """The seed of the cut of the deck sealed as ``deck_commitment``: every value used,
    in any order (they are sorted), or a mapping's values (commitment -> value, say);
    none for an uncut hand."""
    seal = _hex_digest("the deck commitment", deck_commitment)
    given = values.values() if isinstance(values, Mapping) else values
    used = sorted(_hex_digest("a cut value", value) for value in given)
    text = "".join([f"felt-cut-seed:{seal}", *(f":{value}" for value in used)])
    return hashlib.sha256(text.encode()).digest()


def cut_stream(seed: bytes) -> Iterator[int]:
    """The bytes of ``sha256(seed + counter)`` for counter 0, 1, ... (8 bytes, big-endian)."""
    counter = 0
    while True:  # as long as the shuffle reads
        yield from hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        counter += 1


def _draw_below(stream: Iterator[int], choices: int) -> int:
    """A uniform draw from ``0 .. choices-1``: bytes that would bias it are skipped."""
    limit = 256 - 256 % choices
    while True:
        byte = next(stream)
        if byte < limit:
            return byte % choices


def cut_permutation(seed: bytes, size: int = 52) -> tuple[int, ...]:
    """The cut: entry ``i`` is the sealed position dealt position ``i`` is taken from."""
    if not 1 <= size <= MAX_SIZE:
        raise MalformedCut(f"a cut permutes 1 to {MAX_SIZE} positions, not {size}")
    stream = cut_stream(seed)
    order = list(range(size))
    for i in range(size - 1, 0, -1):
        j = _draw_below(stream, i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def sealed_positions(permutation: Sequence[int], dealt: Iterable[int]) -> tuple[int, ...]:
    """The sealed positions the ``dealt`` positions are taken from, in the same order."""
    return tuple(permutation[position] for position in dealt)


def cut_deck(sealed_deck: Sequence[int], permutation: Sequence[int]) -> tuple[int, ...]:
    """The deck in the order it is dealt: the sealed deck, cut."""
    if len(sealed_deck) != len(permutation):
        raise MalformedCut(f"a cut of {len(permutation)} cannot cut {len(sealed_deck)} cards")
    return tuple(sealed_deck[position] for position in permutation)


def permutation_digest(permutation: Sequence[int]) -> str:
    """The permutation's fingerprint for the public log."""
    text = "felt-cut-permutation:" + ",".join(str(position) for position in permutation)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Cut:
    """A hand's cut: who committed, which values were used, and the permutation.

    ``contributions`` holds (commitment, value) pairs sorted by commitment; the value is
    None for a commitment whose value was not revealed in time (or was refused): it is
    left out of the seed, and recorded.
    """

    hand_ref: str
    deck_commitment: str
    contributions: tuple[tuple[str, str | None], ...]
    seed: bytes
    permutation: tuple[int, ...]

    @property
    def values(self) -> tuple[str, ...]:
        """The values the seed was made from, sorted."""
        return tuple(sorted(value for _, value in self.contributions if value is not None))

    @property
    def left_out(self) -> tuple[str, ...]:
        """The commitments whose value was not used."""
        return tuple(commitment for commitment, value in self.contributions if value is None)

    @property
    def is_uncut(self) -> bool:
        """No player's value went into the cut: the order came from the seal alone."""
        return not self.values

    def as_json(self) -> dict[str, Any]:
        """The ``cut`` object of a hand's ``fairness`` and of its public log entry."""
        return {
            "hand": self.hand_ref,
            "contributions": [
                {"commitment": commitment, "value": value}
                for commitment, value in self.contributions
            ],
            "seed": self.seed.hex(),
            "permutation_digest": permutation_digest(self.permutation),
            "uncut": self.is_uncut,
        }


def make_cut(
    hand_ref: str,
    deck_commitment: str,
    contributions: Iterable[tuple[str, str | None]],
    size: int = 52,
) -> Cut:
    """Cut the deck sealed as ``deck_commitment`` with the (commitment, value or None)
    pairs of the players who committed; a value that does not open its commitment
    raises MalformedCut (refuse it when it arrives and pass None instead)."""
    _hand_name(hand_ref)
    pairs = tuple(sorted(contributions, key=lambda pair: (pair[0], pair[1] or "")))
    for commitment, value in pairs:
        _hex_digest("a cut commitment", commitment)
        if value is not None and not check_contribution(hand_ref, commitment, value):
            raise MalformedCut(f"the value {value} does not open the commitment {commitment}")
    seed = cut_seed(deck_commitment, [value for _, value in pairs if value is not None])
    return Cut(hand_ref, deck_commitment, pairs, seed, cut_permutation(seed, size))


def verify_cut(
    record: object, deck_commitment: str, own_value: str | None = None
) -> tuple[tuple[int, ...] | None, list[str]]:
    """Check a hand's ``cut`` object against the deck's commitment: the permutation it
    makes (None when the object cannot be read) and what does not match.

    ``own_value`` is the value the viewer's client revealed in time: if the cut left it
    out, the hand is disputed.
    """
    try:
        fields, hand_ref, pairs = _read_record(record)
        seed = cut_seed(deck_commitment, [value for _, value in pairs if value is not None])
    except MalformedCut as error:
        return None, [f"cut: {error}"]
    problems = [
        f"cut: the value {value} does not open its commitment {commitment}"
        for commitment, value in pairs
        if value is not None and not check_contribution(hand_ref, commitment, value)
    ]
    permutation = cut_permutation(seed)
    if fields.get("seed") != seed.hex():
        problems.append(f"cut: the seal and the values make the seed {seed.hex()}")
    if fields.get("permutation_digest") != permutation_digest(permutation):
        problems.append(f"cut: the permutation's digest is {permutation_digest(permutation)}")
    uncut = not any(value is not None for _, value in pairs)
    if fields.get("uncut") is not uncut:
        problems.append(f"cut: 'uncut' should be {str(uncut).lower()}")
    if own_value is not None and own_value not in {value for _, value in pairs}:
        problems.append(f"cut: your value {own_value} was left out of the cut: disputed")
    return permutation, problems


def _read_record(
    record: object,
) -> tuple[Mapping[str, Any], str, list[tuple[str, str | None]]]:
    """A ``cut`` object, its hand's name and its (commitment, value or None) pairs."""
    if not isinstance(record, Mapping) or not isinstance(record.get("contributions"), list):
        raise MalformedCut("expected an object with 'hand' and a list of 'contributions'")
    hand_ref = _hand_name(record.get("hand"))
    pairs: list[tuple[str, str | None]] = []
    for entry in record["contributions"]:
        if not isinstance(entry, Mapping):
            raise MalformedCut(f"a contribution is an object, not {entry!r}")
        value = entry.get("value")
        pairs.append(
            (
                _hex_digest("a cut commitment", entry.get("commitment")),
                None if value is None else _hex_digest("a cut value", value),
            )
        )
    return record, hand_ref, pairs

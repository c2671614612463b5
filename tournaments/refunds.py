"""What a cancelled tournament gives back (rule 31): the points still in its pool,
shared by what each entry is owed.

An entry is owed what it paid in (buy-in, rebuys, add-on) less what the tournament
has paid it (prizes, deal amounts, bounties), never less than nothing. The pool
is shared in proportion to the claims. Unless someone was paid more than they put
in, the pool is exactly the claims' total and each entry gets its claim back;
otherwise each entry gets the whole part of its exact share, and
the points left over go one each to the largest fractions, equal fractions in
``order`` (as a deal's do, rule 28). The shares add up exactly to the pool.

>>> share_pool(300, {"ann": 100, "bob": 100, "cy": 100}, ["ann", "bob", "cy"])
{'ann': 100, 'bob': 100, 'cy': 100}
>>> share_pool(40, {"ann": 0, "bob": 10, "cy": 50}, ["ann", "bob", "cy"])
{'ann': 0, 'bob': 7, 'cy': 33}
>>> share_pool(2, {"ann": 5, "bob": 5, "cy": 5}, ["cy", "ann", "bob"])
{'ann': 1, 'bob': 0, 'cy': 1}
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

Player = TypeVar("Player", bound=Hashable)


def claim(paid: int, received: int) -> int:
    """What an entry is owed back: what it put in less what it was paid, at least 0.

    >>> claim(100, 40), claim(100, 120)
    (60, 0)
    """
    return max(0, paid - received)


def share_pool(
    pool: int, claims: Mapping[Player, int], order: Sequence[Player]
) -> dict[Player, int]:
    """Each entry's refund out of ``pool``, in proportion to its claim; ``order`` ranks
    equal fractions for the points left over. Nothing to share, or nobody owed
    anything: every refund is 0."""
    owed = sum(claims.values())
    if pool <= 0 or owed <= 0:
        return dict.fromkeys(claims, 0)
    shares = {player: pool * amount // owed for player, amount in claims.items()}
    fractions = {player: pool * amount % owed for player, amount in claims.items()}
    rank = {player: index for index, player in enumerate(order)}
    left_over = pool - sum(shares.values())
    by_fraction = sorted(claims, key=lambda player: (-fractions[player], rank[player]))
    for player in by_fraction[:left_over]:
        shares[player] += 1
    return shares

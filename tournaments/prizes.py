"""Prizes for finishing places, ties included (rule 19).

Players who share a place split the prizes of the places they cover
evenly: two players tied for 2nd of 6 share 2nd and 3rd place money. Points
that do not divide go one each to the tied players in seat order from the
left of the button, as odd chips do (rule 12).

>>> split_prizes((390, 210), {"ann": 1, "bob": 2, "cy": 2}, ["bob", "cy", "ann"])
{'ann': 390, 'bob': 105, 'cy': 105}
>>> split_prizes((390, 211), {"bob": 2, "cy": 2}, ["cy", "bob"])
{'bob': 105, 'cy': 106}
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

Player = TypeVar("Player", bound=Hashable)


def split_prizes(
    payouts: Sequence[int], places: Mapping[Player, int], order: Sequence[Player]
) -> dict[Player, int]:
    """Each player's prize; ``order`` ranks tied players for the odd points."""
    groups: dict[int, list[Player]] = {}
    for player, place in places.items():
        groups.setdefault(place, []).append(player)
    prizes: dict[Player, int] = {}
    for place, group in groups.items():
        covered = range(place - 1, place - 1 + len(group))
        total = sum(payouts[index] for index in covered if index < len(payouts))
        share, odd = divmod(total, len(group))
        for rank, player in enumerate(sorted(group, key=list(order).index)):
            prizes[player] = share + (1 if rank < odd else 0)
    return dict(sorted(prizes.items(), key=lambda item: list(places).index(item[0])))

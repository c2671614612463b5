"""Knockout bounties: who knocked a player out, who takes the bounty (rules 26-27).

>>> split_bounty(25, {1: 800, 4: 1200}, order=(4, 1))
{4: 25}
>>> progressive_bounty(25)
(13, 12)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.events import PotAwarded
from engine.state import HandState


def knockouts(state: HandState) -> dict[int, tuple[int, ...]]:
    """The players a finished hand knocked out, each with the seats that did it (rule 26).

    A seat is knocked out when it was dealt in with chips and ends the hand
    with none (a seat whose bet came back uncalled, rule 7, keeps those chips
    and is not). Its last chips are in the highest pot it could win (the side
    pot of its all-in); the seats that won that pot knocked it out. In a hand
    run twice (rule 25) the pot is paid in two halves, and the winners of
    either board's half all count. Busted seats come in seat order, and each
    one's knockers in seat order from the left of the button, the order in
    which rule 12 hands out odd chips (the ``order`` of ``split_bounty``).

    >>> import engine
    >>> front = engine.cards("Ks7cKd2dAs9c8h4sJd")  # seat 1's cards first, then the board
    >>> deck = front + tuple(c for c in engine.DECK if c not in front)
    >>> hand = engine.new_hand([100, 300], button=0, deck=deck)
    >>> hand = engine.apply_action(hand, engine.RaiseTo(100))
    >>> hand = engine.apply_action(hand, engine.Call())
    >>> hand.stacks, knockouts(hand)
    ((0, 400), {0: (1,)})
    """
    if not state.is_over:
        raise ValueError("knock-outs are known only once the hand is over")
    awards = [event for event in state.events if isinstance(event, PotAwarded)]
    left_of_button = {
        seat: (seat - state.button - 1) % state.seat_count for seat in range(state.seat_count)
    }
    found: dict[int, tuple[int, ...]] = {}
    for seat in state.players:  # the seats dealt in, every one with chips at the start
        if state.stacks[seat]:
            continue
        last_pot = max([award.pot_index for award in awards if seat in award.eligible])
        winners = {
            winner
            for award in awards
            if award.pot_index == last_pot
            for winner, _chips in award.shares
            if winner != seat
        }
        found[seat] = tuple(sorted(winners, key=left_of_button.__getitem__))
    return found


def split_bounty(
    amount: int, knockers_starting_stacks: Mapping[int, int], order: Sequence[int]
) -> dict[int, int]:
    """Who takes the bounty of a player knocked out by several seats (rule 26).

    ``knockers_starting_stacks`` maps each seat that knocked the player out
    to its chips at the start of the hand. The covering stack, the one that
    started with the most chips, takes the whole ``amount``; seats tied for
    the most share it equally, odd points going one each to the first of them
    in ``order`` (seat order from the left of the button, as ``knockouts``
    lists them). Only the seats that take a share are in the result (a share
    can be 0 when there are fewer points than seats tied).

    >>> split_bounty(25, {1: 800, 3: 800, 4: 500}, order=(3, 4, 1))
    {3: 13, 1: 12}
    """
    if amount < 0:
        raise ValueError("a bounty cannot be negative")
    if not knockers_starting_stacks:
        raise ValueError("a bounty needs at least one seat to take it")
    most = max(knockers_starting_stacks.values())
    covering = [seat for seat, chips in knockers_starting_stacks.items() if chips == most]
    missing = sorted(set(covering) - set(order))
    if missing:
        raise ValueError(f"seat {missing[0]} is not in the order the odd points go by")
    takers = [seat for seat in dict.fromkeys(order) if seat in covering]
    share, odd = divmod(amount, len(takers))
    return {seat: share + (1 if rank < odd else 0) for rank, seat in enumerate(takers)}


def progressive_bounty(bounty: int) -> tuple[int, int]:
    """A progressive knockout bounty split in two halves (rule 27).

    Returns ``(paid_now, added)``: ``paid_now`` goes to the player who took
    the bounty at once, and ``added`` goes on top of their own bounty, for
    whoever knocks them out. An odd point goes to the part paid now.

    >>> progressive_bounty(10)
    (5, 5)
    """
    if bounty < 0:
        raise ValueError("a bounty cannot be negative")
    added = bounty // 2
    return bounty - added, added

"""What a tournament hand's history says beyond the hand itself.

``pokerstars_meta(hand)`` gives ``engine.to_pokerstars`` the tournament
header (``Tournament #<id>, <buy-in> Hold'em No Limit - Level <roman>``, or
``Omaha Pot Limit`` at an Omaha event's tables, in play-money points), the
knockout bounties taken and the places decided in the hand. The text itself is
built per viewer, from ``engine.replay(hand.events)`` and
``to_pokerstars(state, viewer=...)``: never from the stored log as it is.
"""

from __future__ import annotations

from typing import Any

from engine import BountyTaken
from tables.models import Hand
from tournaments.models import Entry, Knockout


def buy_in_text(buy_in: int) -> str:
    """Points have no currency: PokerStars' play-money form, or a freeroll."""
    return f"{buy_in}+0" if buy_in else "Freeroll"


def pokerstars_meta(hand: Hand) -> dict[str, Any]:
    """Keyword arguments for ``engine.to_pokerstars`` ({} for a hand of no tournament)."""
    tournament = hand.table.tournament
    if tournament is None:
        return {}
    decided = Entry.objects.filter(final_hand=hand).select_related("user")
    seats = {(p.user_id, p.name if p.is_bot else ""): p.seat for p in hand.players.all()}
    places = {
        seats[(e.user_id, e.bot_name if e.is_bot else "")]: e.place
        for e in decided
        if e.place is not None and (e.user_id, e.bot_name if e.is_bot else "") in seats
    }
    bounties = _bounties(hand, seats) if tournament.bounty else []
    return {
        "bounties": bounties,
        "tournament_id": tournament.pk,
        "buy_in": buy_in_text(tournament.buy_in),
        "level": hand.level + 1,
        "table": f"{tournament.pk} 1",
        "time": hand.started_at,
        "time_zone": "UTC",
        "places": places,
    }


def _bounties(hand: Hand, seats: dict[tuple[int | None, str], int]) -> list[BountyTaken]:
    """The bounties taken in ``hand``, by the seats of the players who took and lost them."""
    knockouts = list(Knockout.objects.filter(hand=hand).select_related("winner", "busted"))

    def seat_of(entry: Entry) -> int | None:
        return seats.get((entry.user_id, entry.bot_name if entry.is_bot else ""))

    taken = []
    for knockout in knockouts:
        winner, busted = seat_of(knockout.winner), seat_of(knockout.busted)
        if winner is not None and busted is not None:
            taken.append(
                BountyTaken(winner, busted, knockout.paid, knockout.added, knockout.bounty_after)
            )
    return taken

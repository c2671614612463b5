"""Sit-n-go and club tournaments, their entrants and (through ``Table.tournament``)
their tables; clubs and their members.

Every write goes through ``tournaments.services``: the tournament row is locked
first, then its tables in id order, then points accounts.
"""

from tournaments.models.clubs import Club, Membership
from tournaments.models.entries import Deal, Entry, Knockout
from tournaments.models.series import MAX_REPEAT_DAYS, TournamentSeries
from tournaments.models.tournament import (
    MAX_SEATS_PER_TABLE,
    SNG_SEATS,
    STRUCTURE_CHOICES,
    Tournament,
)

__all__ = [
    "MAX_REPEAT_DAYS",
    "MAX_SEATS_PER_TABLE",
    "SNG_SEATS",
    "STRUCTURE_CHOICES",
    "Club",
    "Deal",
    "Entry",
    "Knockout",
    "Membership",
    "Tournament",
    "TournamentSeries",
]

"""Every write of tournaments: each function owns its transaction and locks the
tournament row first, then its tables in id order, then points accounts."""

from tournaments.services.levels import levels_due, tournament_level_announce
from tournaments.services.practice import practice_sng_start
from tournaments.services.registration import (
    sng_open,
    sngs_ensure_open,
    tournament_cancel,
    tournament_register,
    tournament_unregister,
)

__all__ = [
    "levels_due",
    "practice_sng_start",
    "sng_open",
    "sngs_ensure_open",
    "tournament_cancel",
    "tournament_level_announce",
    "tournament_register",
    "tournament_unregister",
]
